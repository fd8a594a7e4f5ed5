package setup

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	registry "github.com/ai-heart/ai-heart/internal/clients"
	adapter "github.com/ai-heart/ai-heart/internal/clients/client"
	"github.com/ai-heart/ai-heart/internal/tools/toolnames"
)

// headless is how the watchdog wakes a client that has a headless mode
// (its adapter's Exec): its argv ("{prompt}" is the heartbeat) printing the
// events the watchdog reads tokens, cost and tool calls from (output:
// stream-json), and whether the client prices its own runs, else an
// example prices entry for it.
type headless struct {
	name string
	*adapter.Exec
}

// headlessOf is the headless mode of the client named name.
func headlessOf(name string) (headless, bool) {
	if a := registry.Lookup(name); a != nil && a.Exec() != nil {
		return headless{a.Title(), a.Exec()}, true
	}
	return headless{}, false
}

// mainClient is the first wired client the watchdog can wake headless,
// "" when none can (Claude Desktop, agy: the agent reads its inbox).
func mainClient(clients []string) string {
	for _, c := range clients {
		if _, ok := headlessOf(c); ok {
			return c
		}
	}
	return ""
}

// allowRulesText are the permission rules init gives a client (its
// AllowTools), as the next steps name them: each of mcp-heart's tools,
// and no other tool.
func allowRulesText(mcp *adapter.MCP) string {
	r := AllowRules(mcp)
	return fmt.Sprintf("one per tool: %s, %s and %d more", r[slices.Index(toolnames.All, toolnames.Checkpoint)],
		r[slices.Index(toolnames.All, toolnames.CreateActivityLog)], len(r)-2)
}

// WatchdogConfig is a watchdog config for the workspace of res that wakes
// its main client headless: a wakeup every 30 minutes, at most 48 a day,
// a daily budget, the status page on loopback. Without a headless client
// the agent is woken through its inbox.
func WatchdogConfig(res Result) string {
	var b strings.Builder
	dir, _ := json.Marshal(res.Dir)
	fmt.Fprintf(&b, "workspace: %s\n", dir)
	h, ok := headlessOf(mainClient(res.Clients))
	if !ok {
		b.WriteString("agent: {delivery: inbox}   # the heartbeats wait in the workspace's inbox\n")
	} else {
		argv, _ := json.Marshal(h.command())
		fmt.Fprintf(&b, "agent:\n  delivery: exec   # headless %s, one run a wakeup\n", h.name)
		fmt.Fprintf(&b, "  command: %s\n", argv)
		b.WriteString("  output: stream-json   # tokens, cost and tool calls read from the client's own events\n")
		b.WriteString("  timeout: 600s\n")
	}
	b.WriteString("schedule: {every: 30m}   # a wakeup every 30 minutes\n")
	b.WriteString("daily_cap: 48            # at most 48 wakeups a day, every source\n")
	switch {
	case ok && h.Priced:
		b.WriteString("budget: {daily_usd: 5}   # no wakeup once today's runs cost $5 (the client prices them)\n")
	case ok && h.Price == "":
		b.WriteString("budget: {daily_tokens: 3000000}   # no wakeup once today's runs used 3M tokens\n")
		fmt.Fprintf(&b, "# %s names no model in its events, so no price applies: the tokens are counted.\n", h.name)
	case ok:
		b.WriteString("budget: {daily_tokens: 3000000}   # no wakeup once today's runs used 3M tokens\n")
		fmt.Fprintf(&b, "# %s reports no price: for dollars, price its model (USD per million tokens;\n", h.name)
		b.WriteString("# example figures: use your provider's, and the model name `watchdog status` shows)\n")
		fmt.Fprintf(&b, "# prices:\n#   %s\n", h.Price)
	}
	b.WriteString("http: {listen: \"127.0.0.1:9477\"}   # the status page and /metrics\n")
	return b.String()
}

// initArgs is init's command line for res again: its clients and folder.
func initArgs(res Result) string {
	var b strings.Builder
	for _, c := range res.Clients {
		fmt.Fprintf(&b, "--client %s ", c)
	}
	b.WriteString(filepath.Base(res.Dir))
	return b.String()
}

// NextSteps is the text shown after init: what each wired client still
// needs, then the watchdog's config. configFile is the config init wrote
// (--systemd-user), "" when the operator is to save it.
func NextSteps(res Result, configFile string) string {
	var b bytes.Buffer
	n := 0
	step := func(format string, a ...any) {
		n++
		text := fmt.Sprintf(format, a...)
		lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
		for i, l := range lines[1:] {
			if l != "" {
				lines[i+1] = "   " + l
			}
		}
		fmt.Fprintf(&b, "%d. %s\n\n", n, strings.Join(lines, "\n"))
	}
	fmt.Fprintf(&b, "Next steps\n\n")
	home := func(rel string) string { return filepath.Join(res.Home, filepath.FromSlash(rel)) }
	for _, c := range res.Clients {
		if a := registry.Lookup(c); a != nil && a.Setup().Next != "" {
			step("%s", expandNext(a, res.Dir, home))
		}
	}
	for _, note := range res.Notes {
		step("%s", note)
	}
	if !slices.Contains(res.Clients, ClientClaudeDesktop) {
		type server struct {
			Command string   `json:"command"`
			Args    []string `json:"args"`
		}
		claude, _ := json.MarshalIndent(map[string]any{
			"mcpServers": map[string]server{
				ServerName: {Command: res.MCPHeart.Path, Args: []string{"--workspace", res.Dir}},
			},
		}, "", "  ")
		step("Other clients: watchdog init --client NAME %s wires them too\n"+
			"(NAME: %s; the flag repeats).\n"+
			"Claude Desktop on another machine: add mcp-heart to its claude_desktop_config.json\n"+
			"(macOS: ~/Library/Application Support/Claude/, Windows: %%APPDATA%%\\Claude\\),\n"+
			"merged into any \"mcpServers\" already there, then restart Claude Desktop.\n"+
			"Use the paths of the machine Claude Desktop runs on:\n\n%s", res.Dir, strings.Join(ClientNames(), ", "), indent(string(claude), "  "))
	}
	cfg := indent(strings.TrimRight(WatchdogConfig(res), "\n"), "  ")
	if configFile != "" {
		step("The watchdog's config is %s; as init writes it:\n\n%s\n\n"+
			"Change it there; the unit below runs the watchdog with it.", configFile, cfg)
	} else if res.Telemetry {
		step("Run the watchdog on the workspace. Save this as watchdog.yaml:\n\n%s\n\n"+
			"then: watchdog run -c watchdog.yaml    (one scan: watchdog check -c watchdog.yaml)\n"+
			"The page: http://127.0.0.1:9477/", cfg)
	} else {
		step("Run the watchdog on the workspace. Save this as watchdog.yaml, beside the workspace:\n\n%s\n\n"+
			"then, in that folder: watchdog init %s again (it reads ./watchdog.yaml and turns the\n"+
			"client's telemetry on towards this watchdog, with the agent's key),\n"+
			"and: watchdog run -c watchdog.yaml    (one scan: watchdog check -c watchdog.yaml)\n"+
			"A second agent on this machine: its own folder, config and port (README.md).\n"+
			"The page: http://127.0.0.1:9477/", cfg, initArgs(res))
	}
	if a := registry.Lookup(mainClient(res.Clients)); a != nil && a.Setup().Tmux != "" {
		step("Interactive instead of headless: start the agent in tmux (tmux new -s agent %s,\n"+
			"in the workspace) and set  agent: {delivery: tmux, tmux_target: agent}  in the config.", a.Setup().Tmux)
	}
	return b.String()
}

// nextWord is a placeholder of an adapter's Next: {dir}, {home:REL},
// {allow_rules}.
var nextWord = regexp.MustCompile(`\{(dir|home:[^}]+|allow_rules)\}`)

// expandNext is the client's next step with its placeholders filled in.
func expandNext(a registry.Adapter, dir string, home func(rel string) string) string {
	return nextWord.ReplaceAllStringFunc(a.Setup().Next, func(w string) string {
		switch w = w[1 : len(w)-1]; {
		case w == "dir":
			return dir
		case w == "allow_rules":
			return allowRulesText(a.MCP())
		}
		return home(strings.TrimPrefix(w, "home:"))
	})
}
