package clients

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The clients' own hooks, wired by `watchdog init --client` and running the
// real heart-hook, tell the watchdog of every turn and tool call at zero
// tokens.

// hookEvents reads the kinds of the events in the workspace's hook spool.
func (w *world) hookEvents() map[string]int {
	files, _ := filepath.Glob(filepath.Join(w.ws, "stats", "hooks", "*.jsonl"))
	kinds := map[string]int{}
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(fh)
		for sc.Scan() {
			var e struct{ Kind string }
			if json.Unmarshal(sc.Bytes(), &e) == nil {
				kinds[e.Kind]++
			}
		}
		fh.Close()
	}
	return kinds
}

func (w *world) alertsText() string {
	b, _ := os.ReadFile(w.alerts)
	return string(b)
}

// hasAlert reports whether an alert of check at level was raised.
func (w *world) hasAlert(check, level string) bool {
	for _, l := range strings.Split(w.alertsText(), "\n") {
		var a struct{ Check, Level string }
		if json.Unmarshal([]byte(l), &a) == nil && a.Check == check && a.Level == level {
			return true
		}
	}
	return false
}

// shellTurn is a model that runs n shell commands (each three seconds
// long, each different) and then ends the turn, never calling mcp-heart.
func shellTurn(tool string, n int, same bool) *script {
	s := &script{Final: "[IDLE]"}
	for i := range n {
		cmd := fmt.Sprintf("sleep 3; echo step %d", i)
		if same {
			cmd = "sleep 0.2; false"
		}
		s.Calls = append(s.Calls, call{Builtin: tool, Args: map[string]any{"command": cmd}})
	}
	return s
}

// busy: a turn of shell calls longer than the inactivity error, no
// checkpoint: the hooks keep the agent alive, and say so (for three times
// the thresholds at most: busyThresholds leave the turn room under that).
func (w *world) busy(s *script) {
	w.t.Helper()
	w.waitFor("a run that ends after its shell calls", 150*time.Second, func() bool {
		return len(s.seen()) >= len(s.Calls) && w.counters()["ghosts"] != nil && w.counters()["ghosts"].(float64) >= 1
	})
	k := w.hookEvents()
	if k["tool"] < len(s.Calls) || k["turn_start"] < 1 || k["turn_end"] < 1 {
		w.t.Fatalf("hook events %v: want %d tool calls, a turn's start and end", k, len(s.Calls))
	}
	if a := w.alertsText(); strings.Contains(a, `"check":"inactivity"`) {
		w.t.Fatalf("inactivity alert during a turn of tool calls: %s", a)
	}
	if cps, _ := filepath.Glob(filepath.Join(w.ws, "stats", "checkpoints", "*.txt")); len(cps) != 0 {
		w.t.Fatalf("checkpoints %v: the turn was meant to prove life through hooks alone", cps)
	}
	w.t.Logf("hook events %v; counters %v", k, w.counters())
}

// busyThresholds and busyCalls make a turn of tool calls alone (seven
// three-second shell calls, about 21 s with no checkpoint) longer than the
// inactivity error (12 s), yet well inside what the hooks alone may hold
// inactivity off for, three times the thresholds (33 s, 36 s), with room for
// a loaded machine's slow client start.
const (
	busyThresholds = "{inactivity_warning: 11s, inactivity_error: 12s, introspection: 30m}"
	busyCalls      = 7
)

func TestClaudeCodeHooksProveLife(t *testing.T) {
	w := newHookedWorld(t, "claude-code")
	w.thresholds = busyThresholds
	s := shellTurn("Bash", busyCalls, false)
	w.claudeExec(s, []string{"--allowedTools=Bash"})
	w.busy(s)
}

func TestGeminiCLIHooksProveLife(t *testing.T) {
	w := newHookedWorld(t, "gemini")
	w.thresholds = busyThresholds
	s := shellTurn("run_shell_command", busyCalls, false)
	w.geminiExec(s, []string{"--yolo"})
	w.busy(s)
}

// The same failing call again and again: tool_loop fires (warning at 8,
// error at 16, which starts recovery).
func (w *world) looping() {
	w.t.Helper()
	w.waitFor("a tool_loop error", 150*time.Second, func() bool { return w.hasAlert("tool_loop", "error") })
	if !w.hasAlert("tool_loop", "warning") {
		w.t.Fatalf("alerts %s: want the tool_loop warning first", w.alertsText())
	}
}

func TestClaudeCodeHooksSeeALoop(t *testing.T) {
	t.Parallel() // waits on its schedule; the timing tests run alone
	w := newHookedWorld(t, "claude-code")
	s := shellTurn("Bash", 30, true)
	w.claudeExec(s, []string{"--allowedTools=Bash"})
	w.looping()
}

func TestGeminiCLIHooksSeeALoop(t *testing.T) {
	t.Parallel() // waits on its schedule; the timing tests run alone
	w := newHookedWorld(t, "gemini")
	s := shellTurn("run_shell_command", 30, true)
	w.geminiExec(s, []string{"--yolo"})
	w.looping()
}

// The model's service answers 429, then 401: the first holds wakeups for
// the breaker's cooldown (no run meanwhile, the breaker's failures
// untouched); the second, the probe after that hold, holds twice as long
// with a service error ("needs you"), and no pause: the next probe finds
// the service answering, and the runs go on. No retry storm. Claude Code's
// own retries are off (CLAUDE_CODE_MAX_RETRIES=0) so each run is one
// request.
func TestClaudeCodeServiceFailures(t *testing.T) {
	w := newHookedWorld(t, "claude-code")
	w.breaker = "{failures: 2, cooldown: 8s, max_cooldown: 16s}"
	w.env = append(w.env, "CLAUDE_CODE_MAX_RETRIES=0")
	s := &script{Fail: []int{429, 401}, Final: "[IDLE]"}
	claude := client(t, "claude")
	url := claudeStandIn(t, s)
	w.env = append(w.env, "ANTHROPIC_API_KEY=standin", "ANTHROPIC_BASE_URL="+url)
	w.run([]string{claude, "-p", "{prompt}", "--output-format", "stream-json", "--verbose"}, 2*time.Second, "output: stream-json")

	w.waitFor("the refusal's service error", 120*time.Second, func() bool { return w.hasAlert("service", "error") })
	f := s.failures()
	if len(f) != 2 || f[1].Sub(f[0]) < 8*time.Second {
		t.Fatalf("failed requests at %v: want 2, the second after the 8s hold", f)
	}
	if !w.hasAlert("service", "warning") || w.hasAlert("pause", "warning") {
		t.Fatalf("alerts %s: want the hold's warning and no pause", w.alertsText())
	}
	c := w.counters()
	if h, _ := c["held_service"].(float64); h < 2 {
		t.Fatalf("counters %v: want the wakeups of the hold counted held_service", c)
	}
	st := w.state()
	if b, _ := st["circuit_breaker"].(map[string]any); b["failures"].(float64) != 0 {
		t.Fatalf("breaker %v: a service failure spent the breaker's failures", b)
	}
	if st["pause"] != nil {
		t.Fatalf("pause %v: a refusal paused the agent", st["pause"])
	}
	// The refusal's hold is 16 s; then one wakeup probes, and the stand-in
	// answers it.
	w.waitFor("the probe's answer", 90*time.Second, func() bool { return w.hasAlert("service", "ok") })
	if took := time.Since(f[1]); took < 16*time.Second {
		t.Fatalf("the service answered again %s after the refusal: a wakeup went out during the 16s hold", took)
	}
	if n := len(s.failures()); n != 2 {
		t.Fatalf("%d failed requests: a retry went out during a hold", n)
	}
}

// state reads the whole state file.
func (w *world) state() map[string]any {
	b, err := os.ReadFile(filepath.Join(w.ws, "stats", "watchdog_state.json"))
	if err != nil {
		w.t.Fatal(err)
	}
	var st map[string]any
	if err := json.Unmarshal(b, &st); err != nil {
		w.t.Fatal(err)
	}
	return st
}
