package clients

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// Look before acting, in the real TUIs: the agent writes a log (which
// answers its wakeup, so the next may go) and then asks for a shell
// command, and the client shows its permission dialog. While it stands,
// two scheduled wakeups and an urgent feedback note come due: nothing is
// typed (an Enter would choose "1. Yes"), and the command does not run.
// The person declines with Escape, and the urgent wakeup goes in then.

func TestClaudeCodeInTmuxNothingTypedIntoADialog(t *testing.T) {
	w := newHookedWorld(t, "claude-code")
	s := &script{Final: "Asked for the command.", Calls: []call{logStep(), {Builtin: "Bash", Args: map[string]any{"command": "touch approved-by-you.txt"}}}}
	w.asked = true
	w.nothingTypedIntoADialog(w.claudeInTmux, s, "Do you want to proceed?")
}

func TestGeminiCLIInTmuxNothingTypedIntoADialog(t *testing.T) {
	w := newHookedWorld(t, "gemini")
	s := &script{PerTurn: true, Final: "Asked for the command.", Calls: []call{logStep(), {Builtin: "run_shell_command", Args: map[string]any{"command": "touch approved-by-you.txt"}}}}
	w.nothingTypedIntoADialog(w.geminiInTmux, s, "Allow execution")
}

// logStep is an activity log in a theme the world makes first.
func logStep() call {
	return call{Tool: "create_activity_log", Args: map[string]any{"activity_type": "thinking", "activity_content": []string{"one small step"},
		"theme_start_id": "20250101000000", "theme_directory_part": "tides"}}
}

func (w *world) nothingTypedIntoADialog(start func(*script) (string, func() string), s *script, dialog string) {
	t := w.t
	t.Helper()
	if err := os.MkdirAll(filepath.Join(w.ws, "artifacts/20250101000000_tides/histories"), 0o755); err != nil {
		t.Fatal(err)
	}
	touched := filepath.Join(w.ws, "approved-by-you.txt")
	sock, pane := start(s)
	history := func() string {
		out, _ := exec.Command("tmux", "-S", sock, "capture-pane", "-p", "-J", "-S", "-", "-t", "agent").Output()
		return string(out)
	}
	w.runTmux(sock, 3*time.Second)
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("the watchdog on the pane and the wakeups:\n%s", w.logLines("pane", "woken", "feedback", "urgent", "delivery", "interrupt", "ErrNotReceived", "received"))
		}
	})
	w.waitFor("the client's permission dialog", 90*time.Second, func() bool { return strings.Contains(pane(), dialog) })
	w.waitFor("a scheduled wakeup held at the dialog, another coalesced", 60*time.Second, func() bool {
		co, _ := w.counters()["coalesced"].(float64)
		return w.logCount("nothing typed into the pane", `"source":"schedule"`, "dialog") >= 1 && co >= 1
	})
	if err := os.WriteFile(filepath.Join(w.ws, "feedbackbox", "interrupt.001_note.md"), []byte("Please look at the tide tables.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// The urgent note takes the held wakeup over; its Escape waits too.
	w.waitFor("the urgent wakeup held at the dialog, two coalesced", 60*time.Second, func() bool {
		co, _ := w.counters()["coalesced"].(float64)
		return w.logCount("nothing typed into the pane", `"source":"feedback"`, "dialog") >= 1 && co >= 2
	})
	if _, err := os.Stat(touched); err == nil {
		t.Fatalf("the command ran: a wakeup's Enter approved it\n%s", pane())
	}
	if !strings.Contains(pane(), dialog) {
		t.Fatalf("the dialog is gone with nobody answering it:\n%s", pane())
	}
	if n := strings.Count(history(), "Heartbeat: "); n != 1 {
		t.Fatalf("%d heartbeats in the pane, want only the one before the dialog:\n%s", n, history())
	}

	// The person declines.
	declined := time.Now()
	if out, err := exec.Command("tmux", "-S", sock, "send-keys", "-t", "agent", "Escape").CombinedOutput(); err != nil {
		t.Fatalf("tmux send-keys: %v\n%s", err, out)
	}
	w.waitFor("the urgent wakeup in the pane after the answer", 60*time.Second, func() bool {
		return strings.Contains(history(), "Urgent feedback") && w.logCount("agent woken", `"source":"feedback"`) >= 1
	})
	if _, err := os.Stat(touched); err == nil {
		t.Fatal("the declined command ran")
	}
	// Held at the dialog, it went in with the ID of that moment, the one
	// the tools name files with, not the one of when it began to wait.
	ids := regexp.MustCompile(`Heartbeat: (\d{14})`).FindAllStringSubmatch(history(), -1)
	if at, err := time.ParseInLocation("20060102150405", ids[len(ids)-1][1], time.Local); err != nil || at.Before(declined.Add(-time.Second).Truncate(time.Second)) {
		t.Errorf("the urgent wakeup went in as heartbeat %s (%v), older than the answer at %s", ids[len(ids)-1][1], err, declined.Format("15:04:05"))
	}
	t.Logf("counters %v; hook events %v", w.counters(), w.hookEvents())
}

// logLines are the watchdog's log lines that hold any of words.
func (w *world) logLines(words ...string) string {
	b, _ := os.ReadFile(w.log)
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		for _, x := range words {
			if strings.Contains(l, x) {
				out = append(out, l)
				break
			}
		}
	}
	return strings.Join(out, "\n")
}

// logCount counts the watchdog's log lines that hold every one of words.
func (w *world) logCount(words ...string) int {
	b, _ := os.ReadFile(w.log)
	n := 0
	for _, l := range strings.Split(string(b), "\n") {
		all := true
		for _, x := range words {
			all = all && strings.Contains(l, x)
		}
		if all {
			n++
		}
	}
	return n
}

// A running turn, in the real Claude Code: in its second turn the model
// writes its log (which answers its wakeup, so the next may be admitted)
// and then thinks for 25 s, the spinner up with a "⎿ Tip:" line under it. The scheduled
// wakeups that come due meanwhile wait for the turn's end: none is typed
// into it (Claude Code would queue it and hand it to the model mid-turn
// as "the user sent a new message while you were working").
func TestClaudeCodeInTmuxNothingTypedIntoARunningTurn(t *testing.T) {
	w := newHookedWorld(t, "claude-code")
	w.thresholds = "{inactivity_warning: 5m, inactivity_error: 10m, introspection: 30m}"
	if err := os.MkdirAll(filepath.Join(w.ws, "artifacts/20250101000000_tides/histories"), 0o755); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	logged := 0
	thinking := make(chan struct{})
	s := &script{PerTurn: true, Final: "Done for this heartbeat.", Calls: []call{logStep()}}
	s.Hold = func(step int) {
		if step != 1 { // the log's result is back: the wakeup is answered
			return
		}
		mu.Lock()
		logged++
		second := logged == 2 // Claude Code shows its tips from the second turn
		mu.Unlock()
		if second {
			close(thinking)
			time.Sleep(25 * time.Second)
		}
	}
	sock, pane := w.claudeInTmux(s)
	history := func() string {
		out, _ := exec.Command("tmux", "-S", sock, "capture-pane", "-p", "-J", "-S", "-", "-t", "agent").Output()
		return string(out)
	}
	w.runTmux(sock, 3*time.Second)
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("the watchdog on the pane and the wakeups:\n%s", w.logLines("pane", "woken", "delivery", "received"))
		}
	})
	w.waitFor("the model thinking after its log", 90*time.Second, func() bool {
		select {
		case <-thinking:
			return true
		default:
			return false
		}
	})
	tip := false
	w.waitFor("a scheduled wakeup held by the running turn", 20*time.Second, func() bool {
		tip = tip || strings.Contains(pane(), "Tip:")
		return w.logCount("nothing typed into the pane", `"source":"schedule"`, "middle of a turn") >= 1
	})
	for end := time.Now().Add(15 * time.Second); time.Now().Before(end); time.Sleep(500 * time.Millisecond) {
		p := pane()
		tip = tip || strings.Contains(p, "Tip:")
		if n := strings.Count(history(), "Heartbeat: "); n != 2 || strings.Contains(p, "queued messages") {
			t.Fatalf("a wakeup typed into the running turn (%d heartbeats in the pane):\n%s", n, p)
		}
	}
	if !tip {
		t.Fatalf("no Tip line came under the spinner, the screen this test is about:\n%s", pane())
	}
	w.waitFor("the held wakeup in the pane after the turn", 60*time.Second, func() bool {
		return strings.Count(history(), "Heartbeat: ") >= 3
	})
}
