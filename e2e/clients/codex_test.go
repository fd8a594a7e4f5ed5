package clients

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/cost"
)

// Codex CLI 0.169 (`codex exec`), wired by `watchdog init --client codex`
// (.codex/config.toml and .codex/hooks.json in the workspace), woken by the
// real watchdog, its model a stand-in on loopback.

// codexModel is the model Codex is told to use: one it has no metadata
// for gets the plain function tools (exec_command, the mcp__mcp_heart
// namespace); 0.169's default model gets "code mode" instead, every tool
// behind one JavaScript exec tool. The stand-in plays both.
const codexModel = "gpt-5.1-codex"

// codexExec wakes Codex (`codex exec` and flags) by exec every 20 s, its
// model a stand-in playing s; settings go to the agent's config. The
// user-level config (CODEX_HOME in the world's HOME) names the stand-in as
// the model provider, over plain HTTP (OPENAI_BASE_URL alone is not
// enough: 0.169 first tries a WebSocket to it and gives up), and trusts the
// workspace, without which Codex ignores its .codex/.
// --dangerously-bypass-hook-trust stands in for the review of new hooks
// that a person does once in the TUI's /hooks.
func (w *world) codexExec(s *script, flags []string, settings ...string) {
	w.codexExecModel(s, codexModel, flags, settings...)
}

// codexExecModel is codexExec with model as the model ("": Codex's default).
func (w *world) codexExecModel(s *script, model string, flags []string, settings ...string) {
	codex := client(w.t, "codex")
	url := codexStandIn(w.t, s)
	codexHome := filepath.Join(w.home, ".codex")
	if err := os.MkdirAll(codexHome, 0o755); err != nil {
		w.t.Fatal(err)
	}
	cfg := ""
	if model != "" {
		cfg = fmt.Sprintf("model = %q\n", model)
	}
	cfg += fmt.Sprintf(`model_provider = "standin"

[model_providers.standin]
name = "stand-in"
base_url = %q
env_key = "OPENAI_API_KEY"
wire_api = "responses"
supports_websockets = false

[projects.%q]
trust_level = "trusted"
`, url+"/v1", w.ws)
	if err := os.WriteFile(filepath.Join(codexHome, "config.toml"), []byte(cfg), 0o600); err != nil {
		w.t.Fatal(err)
	}
	w.env = append(w.env, "CODEX_HOME="+codexHome, "OPENAI_API_KEY=standin")
	argv := append([]string{codex, "exec", "--skip-git-repo-check", "--dangerously-bypass-hook-trust"}, flags...)
	w.run(append(argv, "{prompt}"), 20*time.Second, settings...)
}

func TestCodexExec(t *testing.T) {
	t.Parallel() // waits on its schedule; the timing tests run alone
	w, s := newHookedWorld(t, "codex"), idleScript()
	w.codexExec(s, nil)
	w.healthy(s)
	t.Logf("hook events %v; counters %v", w.hookEvents(), w.counters())
}

// Codex's default model calls every tool from JavaScript in one "exec"
// tool: the hooks still see each nested call (Bash,
// mcp__mcp_heart__checkpoint), never the exec around them.
func TestCodexCodeModeExec(t *testing.T) {
	t.Parallel() // waits on its schedule; the timing tests run alone
	w, s := newHookedWorld(t, "codex"), idleScript()
	s.Calls = append(s.Calls, call{Builtin: "exec_command", Args: map[string]any{"cmd": "echo nested"}})
	w.codexExecModel(s, "", nil)
	w.healthy(s)
	// Only exec's replies start so: the calls did go through code mode.
	if seen := strings.Join(s.seen(), "\n"); !strings.Contains(seen, "Script completed") {
		t.Fatalf("tool results %s: want exec's replies", tail(seen, 1000))
	}
	k := w.hookEvents()
	if k["tool"] != 3 || k["tool_done"] != 3 || k["turn_start"] != 1 || k["turn_end"] != 1 {
		t.Fatalf("hook events %v: want the three nested tool calls, a turn's start and end", k)
	}
}

// A turn of twelve one-second exec_command calls (three times the
// inactivity error), no checkpoint: Codex's PreToolUse and PostToolUse
// hooks (tool_name "Bash") keep the agent alive.
func TestCodexHooksProveLife(t *testing.T) {
	w := newHookedWorld(t, "codex")
	w.thresholds = fastThresholds
	s := codexShell(shellTurn("exec_command", 12, false))
	w.codexExec(s, nil)
	w.busy(s)
}

// The same failing shell call again and again: Codex still sends
// PostToolUse for a command that exits 1 (it has no failure event), and
// the PreToolUse hooks carry the same input: tool_loop fires.
func TestCodexHooksSeeALoop(t *testing.T) {
	t.Parallel() // waits on its schedule; the timing tests run alone
	w := newHookedWorld(t, "codex")
	s := codexShell(shellTurn("exec_command", 30, true))
	w.codexExec(s, nil)
	w.looping()
}

// codexShell gives a shellTurn's calls exec_command's argument shape: the
// command line is "cmd" (its hooks show it as tool_input.command).
func codexShell(s *script) *script {
	for i, c := range s.Calls {
		s.Calls[i].Args = map[string]any{"cmd": c.Args["command"]}
	}
	return s
}

// Codex's `exec --json` read as stream-json: the reply from its agent
// message ([IDLE], a ghost), the tool calls from its items, and the turn's
// usage booked: each stand-in response reports 10 input (2 of them
// cached) and 5 output tokens, three a run.
func TestCodexCost(t *testing.T) {
	t.Parallel() // waits on its schedule; the timing tests run alone
	w, s := newHookedWorld(t, "codex"), idleScript()
	w.codexExec(s, []string{"--json"}, "output: stream-json")
	var c cost.Cell
	w.waitFor("a ghost run booked in the cost ledger", 150*time.Second, func() bool {
		var ok bool
		c, ok = w.costToday()
		return ok && c.Runs >= 1
	})
	want := cost.Tokens{Input: 24 * c.Runs, CacheRead: 6 * c.Runs, Output: 15 * c.Runs}
	if c.Unknown != 0 || c.Tokens != want || c.Unpriced != c.Runs {
		t.Fatalf("ghosts today %+v, want %d runs of %+v each, unpriced", c, c.Runs, cost.Tokens{Input: 24, CacheRead: 6, Output: 15})
	}
}
