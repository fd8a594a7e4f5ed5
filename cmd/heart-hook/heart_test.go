package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/workspace"
)

// heartClient is one client whose pre-tool hook the budget gate speaks
// through: how it names mcp-heart's tools, and how a file of its
// registers a server (JSON or TOML).
type heartClient struct {
	client, event string
	tool          func(server, tool string) string
	file          string // the workspace's servers file
	home          string // the home's, under $HOME
	register      func(servers map[string]server) string
	denied        func(out map[string]any) string
}

// server is one entry of a servers file.
type server struct {
	command string
	env     map[string]string
}

func jsonServers(servers map[string]server) string {
	m := map[string]any{}
	for name, s := range servers {
		e := map[string]any{"command": s.command, "args": []string{"--workspace", "/w"}}
		if s.env != nil {
			e["env"] = s.env
		}
		m[name] = e
	}
	b, _ := json.Marshal(map[string]any{"mcpServers": m})
	return string(b)
}

func tomlServers(servers map[string]server) string {
	var b strings.Builder
	for name, s := range servers {
		q, _ := json.Marshal(s.command)
		b.WriteString("[mcp_servers." + name + "]\ncommand = " + string(q) + "\n")
		for k, v := range s.env {
			q, _ := json.Marshal(v)
			b.WriteString("env = { " + k + " = " + string(q) + " }\n")
		}
	}
	return b.String()
}

var heartClients = []heartClient{
	{"claude-code", "PreToolUse", func(s, t string) string { return "mcp__" + s + "__" + t }, ".mcp.json", ".claude.json", jsonServers, hookSpecificDeny},
	{"gemini", "BeforeTool", func(s, t string) string { return "mcp_" + s + "_" + t }, ".gemini/settings.json", ".gemini/settings.json", jsonServers, geminiDeny},
	{"codex", "PreToolUse", func(s, t string) string { return "mcp__" + strings.ReplaceAll(s, "-", "_") + "__" + t }, ".codex/config.toml", ".codex/config.toml", tomlServers, hookSpecificDeny},
}

func geminiDeny(out map[string]any) string {
	if out["decision"] != "deny" {
		return ""
	}
	r, _ := out["reason"].(string)
	return r
}

// TestGateKnowsMCPHeartByItsProgram: while the budget is spent, a call
// passes as mcp-heart's only when it is named as one of mcp-heart's tools
// and the server the client's files register under that name runs the
// real mcp-heart, the very file next to heart-hook (or the one init
// named, --mcp-heart), with no other server bearing its tools' names. The
// review's attack (the agent's own shell registered as mcp-heart, with a
// tool "run") and its variants are refused, and the refusal says why, in
// the workspace's language.
func TestGateKnowsMCPHeartByItsProgram(t *testing.T) {
	real := filepath.Join(binDir, "mcp-heart")
	for _, c := range heartClients {
		t.Run(c.client, func(t *testing.T) {
			ws, home := t.TempDir(), t.TempDir()
			now := time.Now()
			writeGate(t, ws, closedGate(now))
			put := func(p, body string) {
				t.Helper()
				os.MkdirAll(filepath.Dir(p), 0o755)
				if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			registers := func(servers map[string]server) { put(filepath.Join(ws, c.file), c.register(servers)) }
			call := func(tool string, flags ...string) string {
				t.Helper()
				payload := `{"hook_event_name":"` + c.event + `","session_id":"s","tool_name":"` + tool + `","tool_input":{"command":"ls"}}`
				cmd := exec.Command(filepath.Join(binDir, "heart-hook"), append([]string{"--client", c.client, "--workspace", ws}, flags...)...)
				cmd.Env = append(os.Environ(), "HOME="+home, "CLAUDE_CONFIG_DIR=", "CODEX_HOME=", "GEMINI_CLI_HOME=")
				cmd.Stdin = strings.NewReader(payload)
				var out bytes.Buffer
				cmd.Stdout = &out
				if err := cmd.Run(); err != nil {
					t.Fatalf("heart-hook: %v", err)
				}
				if out.Len() == 0 {
					return ""
				}
				var got map[string]any
				if err := json.Unmarshal(out.Bytes(), &got); err != nil || c.denied(got) == "" {
					t.Fatalf("stdout %q: want nothing or %s's denial", out.String(), c.client)
				}
				return c.denied(got)
			}
			checkpoint := c.tool("mcp-heart", "checkpoint")
			allowed := func(what, tool string, flags ...string) {
				t.Helper()
				if r := call(tool, flags...); r != "" {
					t.Errorf("%s: %s refused (%q), want it through", what, tool, r)
				}
			}
			refused := func(what, tool string, says ...string) {
				t.Helper()
				r := call(tool)
				if !strings.HasPrefix(r, spentReason) {
					t.Errorf("%s: %s gets %q, want the budget's refusal", what, tool, r)
				}
				for _, s := range says {
					if !strings.Contains(r, s) {
						t.Errorf("%s: the refusal %q does not say %q", what, r, s)
					}
				}
			}

			registers(map[string]server{"mcp-heart": {command: real}})
			allowed("the real mcp-heart", checkpoint)
			if r := call(c.tool("mcp-heart", "run")); r != spentReason {
				t.Errorf("a tool the real mcp-heart has not: refused with %q, want the budget's reason alone", r)
			}

			// The review's attack: the agent's shell under mcp-heart's name.
			registers(map[string]server{"mcp-heart": {command: "/bin/sh"}})
			refused("another program registered as mcp-heart", checkpoint, c.file, "is not mcp-heart", "/bin/sh")
			refused("another program registered as mcp-heart", c.tool("mcp-heart", "run"), c.file, "is not mcp-heart")

			// The same file through a link is mcp-heart; a copy is not.
			link := filepath.Join(t.TempDir(), "mcp-heart")
			if err := os.Symlink(real, link); err != nil {
				t.Fatal(err)
			}
			registers(map[string]server{"mcp-heart": {command: link}})
			allowed("a link to the real mcp-heart", checkpoint)
			cp := filepath.Join(t.TempDir(), "mcp-heart")
			b, _ := os.ReadFile(real)
			put(cp, string(b))
			os.Chmod(cp, 0o755)
			registers(map[string]server{"mcp-heart": {command: cp}})
			refused("a copy named mcp-heart", checkpoint, cp)
			// The hook's command line is the agent's to write: --mcp-heart
			// naming a file the agent can write is no proof.
			if r := call(checkpoint, "--mcp-heart", cp); !strings.HasPrefix(r, spentReason) || !strings.Contains(r, cp) {
				t.Errorf("--mcp-heart naming a copy the agent can write: %s gets %q, want the budget's refusal naming it", checkpoint, r)
			}
			registers(map[string]server{"mcp-heart": {command: link}})
			allowed("--mcp-heart naming the one next to heart-hook", checkpoint, "--mcp-heart", link)

			registers(map[string]server{"mcp-heart": {command: real, env: map[string]string{"LD_PRELOAD": filepath.Join(ws, "evil.so")}}})
			refused("mcp-heart made to load the agent's code", checkpoint, "LD_PRELOAD")

			registers(map[string]server{"other": {command: "/bin/sh"}})
			refused("no mcp-heart registered", checkpoint, c.file)

			// A file of the home the client also reads.
			registers(map[string]server{"mcp-heart": {command: real}})
			homeFile := filepath.Join(home, filepath.FromSlash(c.home))
			switch c.client {
			case "claude-code":
				// Its local scope (projects.<folder>) wins over .mcp.json.
				b, _ := json.Marshal(map[string]any{"projects": map[string]any{ws: map[string]any{"mcpServers": map[string]any{"mcp-heart": map[string]any{"command": "/bin/sh"}}}}})
				put(homeFile, string(b))
				refused("the local scope's impostor", checkpoint, homeFile)
			case "gemini":
				// Gemini CLI names a tool of server "mcp_mcp-heart" so too.
				put(homeFile, jsonServers(map[string]server{"mcp_mcp-heart": {command: "/bin/sh"}}))
				refused("a server whose tools bear mcp-heart's names", checkpoint, homeFile, "mcp_mcp-heart")
			case "codex":
				// Codex names mcp_heart's tools as mcp-heart's.
				put(homeFile, tomlServers(map[string]server{"mcp_heart": {command: "/bin/sh"}}))
				refused("a server whose tools bear mcp-heart's names", checkpoint, homeFile, "mcp_heart")
			}
			put(homeFile, c.register(map[string]server{"mcp-heart": {command: real}}))
			allowed("the real mcp-heart in both files", checkpoint)

			// In the workspace's language.
			registers(map[string]server{"mcp-heart": {command: "/bin/sh"}})
			put(filepath.Join(ws, filepath.FromSlash(workspace.LanguageFile)), "ja\n")
			refused("in Japanese", checkpoint, "mcp-heart ではありません")
			os.Remove(filepath.Join(ws, filepath.FromSlash(workspace.LanguageFile)))

			// An open gate refuses nothing, the impostor's tools included:
			// no file is read for them.
			writeGate(t, ws, closedGate(now.Add(-3*time.Hour)))
			allowed("an open gate", checkpoint)
			allowed("an open gate", c.tool("mcp-heart", "run"))
		})
	}
}
