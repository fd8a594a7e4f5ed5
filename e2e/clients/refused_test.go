package clients

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A tool call the client refuses (headless, no permission rule allows it,
// and a headless run cannot ask) is seen in the client's stream-json: a
// run whose every call was refused raises tool_refused at error, naming the
// tool, in the alerts, `watchdog status` (and --json) and a notification;
// the run counts as tool_refused, never as delivered, and the refused
// command never ran.
func (w *world) refused(tool string) {
	t := w.t
	t.Helper()
	w.waitFor("a tool_refused error", 150*time.Second, func() bool { return w.hasAlert("tool_refused", "error") })
	if a := w.alertsText(); !strings.Contains(a, "the client refused every tool call") || !strings.Contains(a, tool) {
		t.Fatalf("alerts do not name the refused %s:\n%s", tool, a)
	}
	if _, err := os.Stat(filepath.Join(w.ws, "refused.txt")); err == nil {
		t.Fatal("the refused command ran")
	}
	w.waitFor("the refused run counted", 10*time.Second, func() bool {
		n, _ := w.counters()["tool_refused"].(float64)
		return n >= 1
	})
	if c := w.counters(); c["delivered"].(float64) != 0 || c["delivery_failures"].(float64) < 1 {
		t.Fatalf("counters %v: a run whose every call was refused is no answer", c)
	}
	out, err := exec.Command(filepath.Join(binDir, "watchdog"), "status", "-c", w.cfg).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "refused calls:") || !strings.Contains(string(out), tool) {
		t.Fatalf("watchdog status (%v) does not show the refused %s:\n%s", err, tool, out)
	}
	js, _ := exec.Command(filepath.Join(binDir, "watchdog"), "status", "--json", "-c", w.cfg).Output()
	var st []struct {
		State struct {
			Checks map[string]struct{ Level, Message string } `json:"checks"`
		} `json:"state"`
	}
	if err := json.Unmarshal(js, &st); err != nil || len(st) != 1 || st[0].State.Checks["tool_refused"].Level != "error" ||
		!strings.Contains(st[0].State.Checks["tool_refused"].Message, tool) {
		t.Fatalf("watchdog status --json (%v): want tool_refused at error naming %s:\n%s", err, tool, js)
	}
	t.Logf("status:\n%s\ncounters %v; hook events %v", out, w.counters(), w.hookEvents())
}

// refusedScript calls the client's own shell tool once, which it refuses.
func refusedScript(tool string) *script {
	return &script{Calls: []call{{Builtin: tool, Args: map[string]any{"command": "touch refused.txt"}}}, Final: "done"}
}

// Claude Code 2.1.197 lists the call in its result event's
// permission_denials; its hooks see a PreToolUse and no PostToolUse (nor
// PostToolUseFailure, nor PermissionDenied, which only its auto mode
// sends).
func TestClaudeCodeRefusedCall(t *testing.T) {
	t.Parallel() // waits on its schedule; the timing tests run alone
	w := newHookedWorld(t, "claude-code")
	r, url := newReceiver(t)
	w.notify = `[{url: "` + url + `", min_level: warning, min_interval: 1ms}]`
	w.claudeExec(refusedScript("Bash"), []string{"--output-format", "stream-json", "--verbose"}, "output: stream-json")
	w.refused("Bash")
	w.waitFor("the operator notified", 30*time.Second, func() bool { m, ok := r.find("tool_refused"); return ok && strings.Contains(m, "Bash") })
	if k := w.hookEvents(); k["tool"] < 1 || k["tool_done"] != 0 || k["tool_failed"] != 0 {
		t.Fatalf("hook events %v: want the refused call's PreToolUse alone", k)
	}
}

// Gemini CLI 0.61 headless leaves the tools that need approval out of its
// registry: the call comes back as a tool_result error
// tool_not_registered.
func TestGeminiCLIRefusedCall(t *testing.T) {
	t.Parallel() // waits on its schedule; the timing tests run alone
	w := newWorld(t)
	w.geminiExec(refusedScript("run_shell_command"), []string{"--output-format", "stream-json"}, "output: stream-json")
	w.refused("run_shell_command")
}
