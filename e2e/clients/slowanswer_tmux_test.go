package clients

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A person who answers the real Claude Code's permission dialog late, past
// three times the inactivity error, and says yes: the wait was theirs. The
// command is the turn's first act (its wakeup unanswered, so inactivity
// counts). The
// watchdog sees the dialog on the pane while the hooks say a person is
// asked, raises no inactivity error and starts no recovery, and no Escape
// cancels the command the person approved: it runs.
func TestClaudeCodeInTmuxASlowYesIsNotTheAgents(t *testing.T) {
	w := newHookedWorld(t, "claude-code")
	w.thresholds = "{inactivity_warning: 2s, inactivity_error: 4s, introspection: 30m}" // the hooks alone: 6s, 12s
	if err := os.MkdirAll(filepath.Join(w.ws, "artifacts/20250101000000_tides/histories"), 0o755); err != nil {
		t.Fatal(err)
	}
	touched := filepath.Join(w.ws, "approved-by-you.txt")
	s := &script{Final: "Ran the command.", Calls: []call{{Builtin: "Bash", Args: map[string]any{"command": "touch approved-by-you.txt"}}, logStep()}}
	sock, pane := w.claudeInTmux(s)
	w.runTmux(sock, 3*time.Second)
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("alerts:\n%s\nthe watchdog on the pane:\n%s", w.alertsText(), w.logLines("pane", "woken", "recovery", "interrupt"))
		}
	})
	w.waitFor("the client's permission dialog", 90*time.Second, func() bool { return strings.Contains(pane(), "Do you want to proceed?") })
	asked := time.Now()
	for time.Since(asked) < 15*time.Second { // past three times the error
		if w.hasAlert("inactivity", "error") || w.hasAlert("recovery", "warning") {
			t.Fatalf("an inactivity error or recovery while the dialog stood:\n%s", w.alertsText())
		}
		time.Sleep(500 * time.Millisecond)
	}
	if out, err := exec.Command("tmux", "-S", sock, "send-keys", "-t", "agent", "Enter").CombinedOutput(); err != nil {
		t.Fatalf("tmux send-keys: %v\n%s", err, out)
	}
	w.waitFor("the approved command run", 30*time.Second, func() bool { _, err := os.Stat(touched); return err == nil })
	for end := time.Now().Add(3 * time.Second); time.Now().Before(end); time.Sleep(500 * time.Millisecond) {
		if w.hasAlert("inactivity", "error") || w.hasAlert("recovery", "warning") || w.logCount("interrupted") > 0 {
			t.Fatalf("after the person's yes: an inactivity error, recovery or an Escape:\n%s", w.alertsText())
		}
	}
	t.Logf("hook events %v", w.hookEvents())
}
