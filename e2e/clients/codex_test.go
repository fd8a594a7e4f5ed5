package clients

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/cost"
	"github.com/ai-heart/ai-heart/internal/testutil"
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
// model a stand-in playing s; settings go to the agent's config. The user's
// config (CODEX_HOME in the world's HOME) names the stand-in as the model
// provider, over plain HTTP (OPENAI_BASE_URL alone is not enough: 0.169
// first tries a WebSocket to it and gives up), as a signed-in user's names
// theirs; the workspace's trust in it is init's.
func (w *world) codexExec(s *script, flags []string, settings ...string) {
	w.codexExecModel(s, codexModel, flags, settings...)
}

// codexExecModel is codexExec with model as the model ("": Codex's default).
func (w *world) codexExecModel(s *script, model string, flags []string, settings ...string) {
	codex, codexHome := w.codexSignIn(s, model)
	if w.codexHooks {
		w.trustCodexHooks(codex, codexHome)
	}
	argv := []string{codex, "exec", "--skip-git-repo-check"}
	w.run(append(append(argv, flags...), "{prompt}"), 20*time.Second, settings...)
}

// codexSignIn points the user's Codex at a stand-in playing s, as a
// signed-in user's names their provider, and returns the client and its
// home.
func (w *world) codexSignIn(s *script, model string) (codex, codexHome string) {
	codex = client(w.t, "codex")
	w.wiredFor("codex", ".codex/config.toml")
	url := codexStandIn(w.t, s)
	codexHome = filepath.Join(w.home, ".codex")
	trusted, err := os.ReadFile(filepath.Join(codexHome, "config.toml"))
	if err != nil || !strings.Contains(string(trusted), w.ws) {
		w.t.Fatalf("init did not trust the workspace in %s/config.toml (%v):\n%s", codexHome, err, trusted)
	}
	cfg := ""
	if model != "" {
		cfg = fmt.Sprintf("model = %q\n", model)
	}
	// Top-level keys go before init's [projects."…"] table.
	cfg += fmt.Sprintf(`model_provider = "standin"

[model_providers.standin]
name = "stand-in"
base_url = %q
env_key = "OPENAI_API_KEY"
wire_api = "responses"
supports_websockets = false

`, url+"/v1") + string(trusted)
	if err := os.WriteFile(filepath.Join(codexHome, "config.toml"), []byte(cfg), 0o600); err != nil {
		w.t.Fatal(err)
	}
	w.env = append(w.env, "CODEX_HOME="+codexHome, "OPENAI_API_KEY=standin")
	return codex, codexHome
}

// codexHookCount is how many hooks init wires for Codex: one per event.
const codexHookCount = 8

// trustCodexHooks does what README asks of a person once: open codex in
// the workspace and trust the hooks init wrote ("Hooks need review" →
// "Trust all and continue"), which Codex records in the user's
// config.toml. Then codex exec runs them.
func (w *world) trustCodexHooks(codex, codexHome string) {
	w.t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		w.t.Skip("tmux is not installed")
	}
	w.t.Cleanup(func() { testutil.StopCodexDaemon(codex, codexHome, w.env) })
	sock, _ := w.startInTmux(codex, "CODEX_HOME="+codexHome, "OPENAI_API_KEY=standin")
	w.waitFor("Codex to record the hooks' trust", 60*time.Second, func() bool {
		testutil.AnswerCodexHookReview(sock)
		b, _ := os.ReadFile(filepath.Join(codexHome, "config.toml"))
		return strings.Count(string(b), "trusted_hash") >= codexHookCount
	})
	testutil.KillTmux(sock, 5*time.Second)
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
	w.codexHooks = true
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

// A turn of three-second exec_command calls longer than the inactivity
// error, no checkpoint: Codex's PreToolUse and PostToolUse hooks (tool_name
// "Bash") keep the agent alive.
func TestCodexHooksProveLife(t *testing.T) {
	w := newHookedWorld(t, "codex")
	w.codexHooks = true
	w.thresholds = busyThresholds
	s := codexShell(shellTurn("exec_command", busyCalls, false))
	w.codexExec(s, nil)
	w.busy(s)
}

// The same failing shell call again and again: Codex still sends
// PostToolUse for a command that exits 1 (it has no failure event), and
// the PreToolUse hooks carry the same input: tool_loop fires.
func TestCodexHooksSeeALoop(t *testing.T) {
	t.Parallel() // waits on its schedule; the timing tests run alone
	w := newHookedWorld(t, "codex")
	w.codexHooks = true
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

// Interactive Codex in tmux, as a new user sets it up: init's files, the
// hooks trusted once in Codex's own review. Each heartbeat the watchdog
// types is answered with a checkpoint through mcp-heart, and no call waits
// for an approval.
func TestCodexInTmuxCallsMCPHeart(t *testing.T) {
	w := newHookedWorld(t, "codex")
	s := &script{PerTurn: true, Final: "Checked in.", Calls: []call{
		{Tool: "checkpoint", Args: map[string]any{"current_activity": "scripted work in progress"}},
	}}
	codex, codexHome := w.codexSignIn(s, codexModel)
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed")
	}
	t.Cleanup(func() { testutil.StopCodexDaemon(codex, codexHome, w.env) })
	sock, pane := w.startInTmux(codex, "CODEX_HOME="+codexHome, "OPENAI_API_KEY=standin")
	w.waitFor("Codex's input box, its hooks trusted", 60*time.Second, func() bool {
		testutil.AnswerCodexHookReview(sock)
		b, _ := os.ReadFile(filepath.Join(codexHome, "config.toml"))
		p := pane()
		return strings.Count(string(b), "trusted_hash") >= codexHookCount && !strings.Contains(p, "Hooks need review") && strings.Contains(p, "Ask Codex to do anything")
	})
	w.runTmux(sock, 5*time.Second)
	w.waitFor("two heartbeats answered with a checkpoint", 120*time.Second, func() bool {
		return s.checkpointReplies() >= 2
	})
	if r := refusal(strings.Join(s.seen(), "\n")); r != "" {
		t.Fatalf("the client refused an mcp-heart call: %s", r)
	}
	if w.hasAlert("waiting_for_you", "warning") {
		t.Fatalf("the agent waited for a person: %s\n%s", w.alertsText(), pane())
	}
	if heartbeats(t, s) < 2 {
		t.Fatalf("the model saw fewer than two heartbeats: %q", s.prompts)
	}
	if k := w.hookEvents(); k["tool"] < 2 || k["turn_end"] < 1 {
		t.Fatalf("hook events %v: want the trusted hooks to report the calls and the turns", k)
	}
	t.Logf("hook events %v; counters %v", w.hookEvents(), w.counters())
}
