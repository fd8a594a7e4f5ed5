// Package clients runs the real agent clients (Gemini CLI, Claude Code,
// Codex) against scripted stand-ins for their model APIs on loopback, woken by the
// real watchdog and calling the real mcp-heart. It needs the clients
// installed from npm into $AIHEART_CLIENTS_DIR (make e2e-clients does it)
// and skips without them.
package clients

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/testutil"
)

var binDir string

func TestMain(m *testing.M) {
	os.Exit(testutil.RunWithBinaries(m, &binDir, "github.com/ai-heart/ai-heart/cmd/watchdog", "github.com/ai-heart/ai-heart/cmd/mcp-heart", "github.com/ai-heart/ai-heart/cmd/heart-hook"))
}

// client returns the path of an installed client, or skips.
func client(t testing.TB, name string) string {
	dir := os.Getenv("AIHEART_CLIENTS_DIR")
	if dir == "" {
		t.Skip("AIHEART_CLIENTS_DIR is not set: run make e2e-clients")
	}
	p := filepath.Join(dir, "node_modules", ".bin", name)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("%s is not installed in %s", name, dir)
	}
	return p
}

// world is a workspace laid out by `watchdog init`, a throwaway HOME and the
// environment the clients run in.
type world struct {
	t      testing.TB
	ws     string
	home   string
	alerts string
	env    []string
	// thresholds and breaker are the watchdog config's lines for them;
	// notify, the alerts' notify list (empty: none).
	thresholds, breaker, notify string
	// cfg is the config start wrote.
	cfg string
	// codexHooks: Codex runs the hooks init wired (see codexExecModel).
	codexHooks bool
	// more is added to the watchdog's config (an http section).
	more string
	// log is the watchdog's log file (JSON lines), once started.
	log string
	// asked starts interactive Claude Code in its "default" permission
	// mode, which asks before a tool the settings do not allow: since
	// 2.1.3xx its default is auto mode, which decides without a dialog.
	asked bool
}

// newWorld lays out a workspace for clients (Gemini CLI when none) without
// hooks, as the old system's users have it.
func newWorld(t testing.TB, clients ...string) *world {
	// No telemetry: whatever listens on the default address is not this
	// test's watchdog (newTelemetryWorld turns it on).
	args := []string{"--heart-hook", "/nonexistent/heart-hook", "--telemetry=false"}
	for _, c := range clients {
		args = append(args, "--client", c)
	}
	return newWorldWith(t, args...)
}

// newHookedWorld lays out a workspace wired for clients by `watchdog init
// --client`, their hooks running the real heart-hook.
func newHookedWorld(t testing.TB, clients ...string) *world {
	args := []string{"--heart-hook", filepath.Join(binDir, "heart-hook"), "--telemetry=false"}
	for _, c := range clients {
		args = append(args, "--client", c)
	}
	return newWorldWith(t, args...)
}

func newWorldWith(t testing.TB, initArgs ...string) *world {
	root := t.TempDir()
	w := &world{t: t, ws: filepath.Join(root, "ai-works"), home: filepath.Join(root, "home"), alerts: filepath.Join(root, "alerts.jsonl"),
		thresholds: "{inactivity_warning: 60s, inactivity_error: 120s, introspection: 30m}",
		breaker:    "{failures: 2, cooldown: 1h, max_cooldown: 2h}"}
	if err := os.MkdirAll(w.home, 0o755); err != nil {
		t.Fatal(err)
	}
	w.env = append(os.Environ(), "HOME="+w.home, "DISABLE_TELEMETRY=1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "NO_COLOR=1", "CI=true")
	// The agent's user runs init, as README says: what it grants in the
	// home (the clients' user settings) is all the clients get.
	args := append([]string{"init", "--mcp-heart", filepath.Join(binDir, "mcp-heart")}, initArgs...)
	cmd := exec.Command(filepath.Join(binDir, "watchdog"), append(args, w.ws)...)
	cmd.Env = w.env
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("watchdog init: %v\n%s", err, out)
	}
	return w
}

func (w *world) writeJSON(rel string, v any) {
	w.t.Helper()
	p := filepath.Join(w.home, rel)
	os.MkdirAll(filepath.Dir(p), 0o755)
	b, _ := json.Marshal(v)
	if err := os.WriteFile(p, b, 0o644); err != nil {
		w.t.Fatal(err)
	}
}

// run starts the watchdog with exec delivery of argv, woken every `every`;
// extra is added to the agent's settings.
func (w *world) run(argv []string, every time.Duration, extra ...string) {
	w.t.Helper()
	cmdYAML, _ := json.Marshal(argv)
	w.start(every, fmt.Sprintf("{delivery: exec, command: %s, timeout: 90s%s}", cmdYAML, strings.Join(append([]string{""}, extra...), ", ")))
}

// runTmux starts the watchdog typing heartbeats into the tmux session
// "agent" on the server at sock.
func (w *world) runTmux(sock string, every time.Duration) {
	w.t.Helper()
	w.start(every, fmt.Sprintf("{delivery: tmux, tmux_target: agent, tmux_socket: %q}", sock))
}

func (w *world) start(every time.Duration, agent string) {
	w.t.Helper()
	cfg := filepath.Join(w.t.TempDir(), "watchdog.yaml")
	w.cfg = cfg
	notify := ""
	if w.notify != "" {
		notify = ", notify: " + w.notify
	}
	body := fmt.Sprintf(`workspace: %s
pulse: {interval: 500ms}
thresholds: %s
schedule: {every: %s}
alerts: {file: %s%s}
agent: %s
circuit_breaker: %s
%s`, w.ws, w.thresholds, every, w.alerts, notify, agent, w.breaker, w.more)
	if err := os.WriteFile(cfg, []byte(body), 0o644); err != nil {
		w.t.Fatal(err)
	}
	cmd := exec.Command(filepath.Join(binDir, "watchdog"), "run", "-c", cfg, "--log-format", "json")
	cmd.Env = w.env
	log, _ := os.Create(filepath.Join(w.t.TempDir(), "watchdog.log"))
	w.log = log.Name()
	cmd.Stdout, cmd.Stderr = log, log
	p := testutil.Start(w.t, cmd)
	w.t.Cleanup(func() {
		p.Signal(syscall.SIGTERM)
		p.Wait()
		if w.t.Failed() {
			b, _ := os.ReadFile(log.Name())
			w.t.Logf("watchdog log:\n%s", tail(string(b), 4000))
		}
	})
}

func tail(s string, n int) string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}

func (w *world) counters() map[string]any {
	b, err := os.ReadFile(filepath.Join(w.ws, "stats", "watchdog_state.json"))
	if err != nil {
		return nil
	}
	var st struct {
		Counters map[string]any `json:"counters"`
	}
	json.Unmarshal(b, &st)
	return st.Counters
}

func (w *world) waitFor(what string, timeout time.Duration, cond func() bool) {
	w.t.Helper()
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		if cond() {
			return
		}
		time.Sleep(200 * time.Millisecond)
	}
	w.t.Fatalf("timed out after %s waiting for %s; counters %v", timeout, what, w.counters())
}

// healthy checks what every client run must show: the scripted tool calls
// went through mcp-heart (a checkpoint file, the elapsed reply seen by the
// model), the [IDLE] reply was a ghost, and no inactivity alert came.
func (w *world) healthy(s *script) {
	w.t.Helper()
	w.waitFor("a ghost run after the scripted tool calls", 150*time.Second, func() bool {
		c := w.counters()
		g, _ := c["ghosts"].(float64)
		return g >= 1 && len(s.seen()) >= 2
	})
	cps, _ := filepath.Glob(filepath.Join(w.ws, "stats", "checkpoints", "*.txt"))
	if len(cps) == 0 {
		w.t.Fatal("no checkpoint file: the client's checkpoint call did not reach mcp-heart")
	}
	b, _ := os.ReadFile(cps[0])
	if !strings.Contains(string(b), "scripted work") {
		w.t.Fatalf("checkpoint file %q lacks the scripted message", b)
	}
	seen := strings.Join(s.seen(), "\n")
	// Gemini CLI hands the model the text, Claude Code the structuredContent
	// JSON: both name the checkpoint file and the heartbeat.
	if !strings.Contains(seen, "stats/checkpoints/") || !strings.Contains(seen, "heartbeat") {
		w.t.Fatalf("the model never saw the tools' replies: %s", tail(seen, 2000))
	}
	// The status reply's words reach the model whichever form it is
	// handed: its text (Gemini CLI), or the structure led by that text
	// (Claude Code, whose model read only fields before, and never the
	// instructions and reasons the text alone gave).
	for _, words := range []string{"Current heartbeat ID: ", "Since latest checkpoint: "} {
		if !strings.Contains(seen, words) {
			w.t.Fatalf("the model never saw the status reply's words %q: %s", words, tail(seen, 2000))
		}
	}
	if refused := refusal(seen); refused != "" {
		w.t.Fatalf("the client refused or held an mcp-heart call: %s", refused)
	}
	if files, _ := filepath.Glob(filepath.Join(w.ws, "stats", "wakeups", "*.jsonl")); len(files) != 0 {
		w.t.Fatalf("a ghost run left a transcript: %v", files)
	}
	if b, _ := os.ReadFile(w.alerts); strings.Contains(string(b), `"check":"inactivity"`) {
		w.t.Fatalf("inactivity alert for an agent that answered: %s", b)
	}
}

// refusal finds, in the tool results a model saw, a client's word that it
// did not run a call for want of permission ("" when none did).
func refusal(results string) string {
	for _, phrase := range []string{"haven't granted", "requested permissions", "permission denied", "not allowed", "requires approval"} {
		if i := strings.Index(strings.ToLower(results), phrase); i >= 0 {
			return results[max(0, i-200):min(len(results), i+200)]
		}
	}
	return ""
}

var idleScript = func() *script {
	return &script{Calls: []call{
		{Tool: "checkpoint", Args: map[string]any{"current_activity": "scripted work in progress"}},
		{Tool: "get_heartbeat_elapsed_time"},
	}, Final: "[IDLE]"}
}

// geminiExec wakes Gemini CLI (`gemini -p` and flags) by exec every 20 s,
// its model a stand-in playing s; settings go to the agent's config. The
// user signed in with an API key, as anyone who ran Gemini CLI has; the
// folder's trust and mcp-heart are init's.
func (w *world) geminiExec(s *script, flags []string, settings ...string) {
	gemini := client(w.t, "gemini")
	w.wiredFor("gemini", ".gemini/settings.json")
	url := geminiStandIn(w.t, s)
	w.writeJSON(".gemini/settings.json", map[string]any{"security": map[string]any{"auth": map[string]any{"selectedType": "gemini-api-key"}}})
	w.env = append(w.env, "GEMINI_API_KEY=standin", "GOOGLE_GEMINI_BASE_URL="+url)
	w.run(append([]string{gemini, "-p", "{prompt}"}, flags...), 20*time.Second, settings...)
}

// claudeExec wakes Claude Code (`claude -p` and flags) by exec every 20 s,
// its model a stand-in playing s, in a workspace wired by init: mcp-heart
// from .mcp.json, its tools allowed by init's rule and nothing else.
func (w *world) claudeExec(s *script, flags []string, settings ...string) {
	claude := client(w.t, "claude")
	w.wiredFor("claude-code", ".mcp.json")
	url := claudeStandIn(w.t, s)
	w.env = append(w.env, "ANTHROPIC_API_KEY=standin", "ANTHROPIC_BASE_URL="+url)
	w.run(append([]string{claude, "-p", "{prompt}"}, flags...), 20*time.Second, settings...)
}

// wiredFor fails the test unless init wired the workspace for client
// (its file rel is there): the clients get what init writes, nothing else.
func (w *world) wiredFor(client, rel string) {
	w.t.Helper()
	if _, err := os.Stat(filepath.Join(w.ws, rel)); err != nil {
		w.t.Fatalf("the workspace is not wired for %s (no %s): lay it out with init --client %s", client, rel, client)
	}
}

func TestGeminiCLIExec(t *testing.T) {
	t.Parallel() // waits on its schedule; the timing tests run alone
	w, s := newWorld(t), idleScript()
	w.geminiExec(s, nil)
	w.healthy(s)
}

func TestClaudeCodeExec(t *testing.T) {
	t.Parallel() // waits on its schedule; the timing tests run alone
	w, s := newWorld(t, "claude-code"), idleScript()
	w.claudeExec(s, nil)
	w.healthy(s)
}

// A model that keeps calling tools: the watchdog reads the client's
// stream-json, ends the run at call 4 (max_tool_calls 3), discards it, and
// the breaker counts it.
func runaway() *script {
	s := &script{Final: "never reached"}
	for i := 0; i < 30; i++ {
		s.Calls = append(s.Calls, call{Tool: "checkpoint", Args: map[string]any{"current_activity": fmt.Sprintf("retrying the failing API, try %d", i)}})
	}
	return s
}

func (w *world) capped(s *script) {
	w.t.Helper()
	w.waitFor("a run ended at the tool cap", 150*time.Second, func() bool {
		c := w.counters()
		n, _ := c["tool_capped"].(float64)
		return n >= 1
	})
	c := w.counters()
	if c["delivered"].(float64) != 0 || c["delivery_failures"].(float64) < 1 {
		w.t.Fatalf("counters %v: want the capped run counted as a delivery failure", c)
	}
	if files, _ := filepath.Glob(filepath.Join(w.ws, "stats", "wakeups", "*.jsonl")); len(files) != 0 {
		w.t.Fatalf("a capped run left a transcript: %v", files)
	}
	if n := len(s.seen()); n > 6 {
		w.t.Fatalf("the model got %d tool results; the run should end at call 4", n)
	}
	w.t.Logf("tool cap: %d tool results reached the model before the run was ended; counters %v", len(s.seen()), c)
}

func TestGeminiCLIToolCap(t *testing.T) {
	t.Parallel() // waits on its schedule; the timing tests run alone
	w, s := newWorld(t), runaway()
	w.geminiExec(s, []string{"--output-format", "stream-json"}, "output: stream-json", "max_tool_calls: 3")
	w.capped(s)
}

func TestClaudeCodeToolCap(t *testing.T) {
	t.Parallel() // waits on its schedule; the timing tests run alone
	w, s := newWorld(t, "claude-code"), runaway()
	w.claudeExec(s, []string{"--output-format", "stream-json", "--verbose"}, "output: stream-json", "max_tool_calls: 3")
	w.capped(s)
}
