package clients

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Claude Code's own scheduled wakeup (CronCreate), listed by its Stop hook,
// never fires here: the headless run that made it ends, and its session's
// crons with it. The watchdog, told by the real client's hook, alerts and
// delivers the wakeup in its place, once (inbox delivery: the prompt
// file).
func TestClaudeCodeMissedSelfWakeup(t *testing.T) {
	claude := client(t, "claude")
	w := newHookedWorld(t, "claude-code")
	w.more = "idle: {after: 1h, self_wakeup_margin: 5s}\n"
	due := time.Now().Add(90 * time.Second).Truncate(time.Minute) // 30 to 90 s ahead, local time as the client reads it
	cron := fmt.Sprintf("%d %d %d %d *", due.Minute(), due.Hour(), due.Day(), int(due.Month()))
	s := &script{Final: "Reminder set.", Calls: []call{{Builtin: "CronCreate", Args: map[string]any{"cron": cron, "prompt": "check the build", "recurring": false}}}}
	url := claudeStandIn(t, s)
	w.env = append(w.env, "ANTHROPIC_API_KEY=standin", "ANTHROPIC_BASE_URL="+url)
	w.start(time.Hour, "{delivery: inbox}")
	time.Sleep(time.Second) // the watchdog's start: its hooks' baseline
	out := w.once([]string{claude, "-p", "remind me to check the build", "--allowedTools=CronCreate"})
	t.Logf("claude: %s", tail(out, 500))
	spool := w.spoolText()
	if !strings.Contains(spool, `"crons":[{`) {
		t.Fatalf("the Stop hook listed no cron (did the stand-in's CronCreate run?); spool:\n%s", tail(spool, 3000))
	}
	prompt := filepath.Join(w.ws, "stats", "heartbeat_prompt.md")
	w.waitFor("the missed cron's alert and wakeup", time.Until(due)+90*time.Second, func() bool {
		b, _ := os.ReadFile(prompt)
		return w.hasAlert("self_wakeup", "warning") && strings.Contains(string(b), "did not fire")
	})
	if n := strings.Count(w.alertsText(), `"check":"self_wakeup"`); n != 1 {
		t.Fatalf("%d self_wakeup alerts, want 1:\n%s", n, w.alertsText())
	}
	t.Logf("cron %q due %s; alerts:\n%s", cron, due.Format(time.TimeOnly), w.alertsText())
}

// spoolText is the hooks' spool of the day, as heart-hook wrote it.
func (w *world) spoolText() string {
	files, _ := filepath.Glob(filepath.Join(w.ws, "stats", "hooks", "*.jsonl"))
	var b strings.Builder
	for _, f := range files {
		d, _ := os.ReadFile(f)
		b.Write(d)
	}
	return b.String()
}

// A 429 whose retry-after (30 s) the real Claude Code waits out, announced
// in its stream-json (api_retry, retry_delay_ms): the run outlasts its 20 s
// timeout by the wait, bounded by agent.retry_wait_max, and answers.
func TestClaudeCodeRetryWaitOutlastsTheTimeout(t *testing.T) {
	claude := client(t, "claude")
	w := newHookedWorld(t, "claude-code")
	s := &script{Fail: []int{429}, Final: "[IDLE]"}
	url := claudeStandIn(t, s)
	w.env = append(w.env, "ANTHROPIC_API_KEY=standin", "ANTHROPIC_BASE_URL="+url)
	argv := fmt.Sprintf(`[%q, "-p", "{prompt}", "--output-format", "stream-json", "--verbose"]`, claude)
	w.start(3*time.Second, "{delivery: exec, command: "+argv+", output: stream-json, timeout: 20s, retry_wait_max: 2m}")
	w.waitFor("the run's answer after the client's retry wait", 150*time.Second, func() bool {
		g, _ := w.counters()["ghosts"].(float64)
		return g >= 1
	})
	f := s.failures()
	if len(f) != 1 || time.Since(f[0]) < 20*time.Second {
		t.Fatalf("failed requests %v: want one, answered after the 20 s timeout", f)
	}
	if c := w.counters(); c["delivery_failures"].(float64) != 0 {
		t.Fatalf("counters %v: the run failed", c)
	}
	t.Logf("429 at %s, answered %s later; alerts:\n%s", f[0].Format(time.TimeOnly), time.Since(f[0]).Round(time.Second), w.alertsText())
}

// The real Claude Code ends a run at --max-turns: its result's
// terminal_reason (max_turns) names the run's end in a run_end alert.
func TestClaudeCodeTerminalReasonNamed(t *testing.T) {
	claude := client(t, "claude")
	w := newHookedWorld(t, "claude-code")
	s := shellTurn("Bash", 3, false)
	url := claudeStandIn(t, s)
	w.env = append(w.env, "ANTHROPIC_API_KEY=standin", "ANTHROPIC_BASE_URL="+url)
	argv := fmt.Sprintf(`[%q, "-p", "{prompt}", "--output-format", "stream-json", "--verbose", "--max-turns", "1", "--allowedTools=Bash"]`, claude)
	w.start(3*time.Second, "{delivery: exec, command: "+argv+", output: stream-json, timeout: 90s}")
	w.waitFor("the run_end alert naming max_turns", 120*time.Second, func() bool {
		return strings.Contains(w.alertsText(), "terminal_reason max_turns")
	})
	t.Logf("alerts:\n%s", w.alertsText())
}

// Interactive Claude Code in tmux schedules its own wakeup (CronCreate,
// due within 30 to 90 s) and fires it: the watchdog gives no idle wakeup
// on top (idle.after is 20 s) and delivers nothing in its place.
func TestClaudeCodeInTmuxSelfWakeupFires(t *testing.T) {
	w := newHookedWorld(t, "claude-code")
	w.more = "idle: {after: 20s, self_wakeup_margin: 30s}\n"
	due := time.Now().Add(150 * time.Second).Truncate(time.Minute) // after the client's start
	cron := fmt.Sprintf("%d %d %d %d *", due.Minute(), due.Hour(), due.Day(), int(due.Month()))
	s := &script{Final: "Reminder set.", Calls: []call{{Builtin: "CronCreate", Args: map[string]any{"cron": cron, "prompt": "check the build", "recurring": false}}}}
	if err := os.MkdirAll(filepath.Join(w.ws, ".claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(w.ws, ".claude", "settings.local.json"), []byte(`{"permissions":{"allow":["CronCreate"]}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	sock, pane := w.claudeInTmux(s)
	w.runTmux(sock, time.Hour)
	exec.Command("tmux", "-S", sock, "send-keys", "-t", "agent", "-l", "remind me to check the build").Run()
	time.Sleep(300 * time.Millisecond)
	exec.Command("tmux", "-S", sock, "send-keys", "-t", "agent", "Enter").Run()
	w.waitFor("the Stop hook listing the cron", 60*time.Second, func() bool { return strings.Contains(w.spoolText(), `"crons":[{`) })
	w.waitFor("the cron's own turn", time.Until(due)+60*time.Second, func() bool { return w.hookEvents()["turn_start"] >= 2 })
	time.Sleep(5 * time.Second) // a pulse or two after the turn: a wakeup the watchdog sent would show
	if a := w.alertsText(); strings.Contains(a, `"check":"self_wakeup"`) {
		t.Fatalf("self_wakeup alert though the client fired its cron:\n%s", a)
	}
	if p := pane(); strings.Contains(p, "Heartbeat: ") {
		t.Fatalf("a heartbeat was typed while the session was parked on its own wakeup:\n%s", p)
	}
	t.Logf("cron %q due %s fired by the client; hook events %v", cron, due.Format(time.TimeOnly), w.hookEvents())
}
