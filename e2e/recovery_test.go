package e2e

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/testutil"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// hookEvent feeds one hook input to heart-hook as the client's hooks do.
func hookEvent(t *testing.T, ws *workspace.Workspace, client, input string) {
	t.Helper()
	cmd := exec.Command(filepath.Join(binDir, "heart-hook"), "--client", client, "--workspace", ws.Root)
	cmd.Stdin = strings.NewReader(input)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("heart-hook: %v\n%s", err, out)
	}
}

// TestE2ERecoveryWaitsForAPersonAndComesBack follows recovery in a real
// tmux pane whose client (Claude Code, as its hooks say) is stuck on a
// forged future ID: while the client asks a person for permission nothing is
// typed and the operator is told once; when the person has answered, the
// attempt interrupts with Claude Code's own key (one Escape, no Gemini CLI
// "/chat save"); after the last attempt the watchdog gives up, and
// `watchdog resume` brings waking back with the first wakeup telling the
// agent what happened.
func TestE2ERecoveryWaitsForAPersonAndComesBack(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed")
	}
	dir := t.TempDir()
	recorder, typed := filepath.Join(dir, "recorder"), filepath.Join(dir, "typed")
	if err := testutil.Build("../internal/delivery/testdata/recorder", recorder); err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(dir, "tmux.sock")
	if out, err := exec.Command("tmux", "-f", "/dev/null", "-S", sock, "new-session", "-d", "-s", "agent", "-x", "200", "-y", "50", recorder, "-out", typed).CombinedOutput(); err != nil {
		t.Fatalf("tmux: %v\n%s", err, out)
	}
	t.Cleanup(func() { testutil.KillTmux(sock, 5*time.Second) })
	waitUntil(t, "the recorder in the pane", 10*time.Second, func() bool {
		out, _ := exec.Command("tmux", "-S", sock, "capture-pane", "-p", "-t", "agent").Output()
		return strings.Contains(string(out), "READY")
	})
	ws, cfg, alerts := initWorkspace(t, "pulse: {interval: 300ms}\nthresholds: {inactivity_warning: 30s, inactivity_error: 60s, introspection: 10m}\n"+
		"schedule: {every: 1h}\nrecovery: {max_attempts: 2, max_wait_cycles: 3, resume_after: 0s}\n"+
		fmt.Sprintf("agent: {delivery: tmux, tmux_target: agent, tmux_socket: %q}\n", sock))
	t.Cleanup(func() {
		if t.Failed() {
			a, _ := os.ReadFile(alerts)
			b, _ := os.ReadFile(typed)
			t.Logf("alerts:\n%s\ntyped: %q", a, b)
		}
	})
	// The client asks a person before anything goes wrong.
	hookEvent(t, ws, "claude-code", `{"hook_event_name":"Notification","notification_type":"permission_prompt","message":"Claude needs your permission to use Bash"}`)
	runWatchdog(t, cfg)
	waitUntil(t, "the first pulse", 10*time.Second, func() bool {
		_, err := os.Stat(ws.Path(workspace.CurrentIDFile))
		return err == nil
	})
	future := workspace.NewID(time.Now().Add(time.Hour))
	if err := ws.WriteFile("artifacts/20260101000000_stuck/histories/"+string(future)+".md", workspace.ActivityLog{Type: workspace.Thinking, Content: []string{"forged"}}.Format(future, "")); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "recovery to wait for the person", 10*time.Second, func() bool { return has(alertsIn(t, alerts), "recovery=warning") })
	if msg := alertMessage(t, alerts, "recovery"); !strings.Contains(msg, "recovery waits") || !strings.Contains(msg, "permission_prompt") {
		t.Fatalf("the first recovery alert = %q, want it to say recovery waits for the person", msg)
	}
	if b, _ := os.ReadFile(typed); len(b) > 0 {
		t.Fatalf("typed into a pane where a person is being asked: %q", b)
	}
	// The person answers; the client runs the tool.
	hookEvent(t, ws, "claude-code", `{"hook_event_name":"PostToolUse","tool_name":"Bash","tool_use_id":"t1"}`)
	waitUntil(t, "the recovery prompt in the pane", 10*time.Second, func() bool {
		b, _ := os.ReadFile(typed)
		return bytes.Contains(b, []byte("Heartbeat: "))
	})
	b, _ := os.ReadFile(typed)
	if !bytes.HasPrefix(b, []byte("\x1bH")) && !bytes.HasPrefix(b, []byte("\x1b\x1b[200~")) {
		t.Fatalf("the attempt typed %q first, want Claude Code's one Escape and then the prompt", b[:min(len(b), 40)])
	}
	if bytes.Contains(b, []byte("/chat save")) || bytes.HasPrefix(b, []byte("\x1b\x1b")) && !bytes.HasPrefix(b, []byte("\x1b\x1b[200~")) {
		t.Fatalf("Gemini CLI's keys typed into Claude Code: %q", b[:min(len(b), 80)])
	}
	if n := strings.Count(strings.Join(messagesOf(t, alerts, "recovery"), "\n"), "recovery waits"); n != 1 {
		t.Fatalf("the operator was told %d times that recovery waits, want once", n)
	}
	waitUntil(t, "recovery to give up", 20*time.Second, func() bool { return has(alertsIn(t, alerts), "gave_up=error") })
	if msg := alertMessage(t, alerts, "gave_up"); !strings.Contains(msg, "watchdog resume") {
		t.Fatalf("the give-up does not say how it ends: %q", msg)
	}
	if out, err := exec.Command(filepath.Join(binDir, "watchdog"), "resume", "-c", cfg).CombinedOutput(); err != nil {
		t.Fatalf("resume: %v\n%s", err, out)
	}
	waitUntil(t, "waking to come back", 10*time.Second, func() bool { return has(alertsIn(t, alerts), "gave_up=ok") })
	waitUntil(t, "the first wakeup after it to tell the agent", 10*time.Second, func() bool {
		b, _ := os.ReadFile(typed)
		return bytes.Contains(b, []byte("Recovery tried 2 times"))
	})
}

// messagesOf returns the messages of every alert of check, in order.
func messagesOf(t *testing.T, path, check string) []string {
	b, _ := os.ReadFile(path)
	var out []string
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if jsonField([]byte(l), "check") == check {
			out = append(out, jsonField([]byte(l), "message"))
		}
	}
	return out
}

// alertMessage is the first alert message of check.
func alertMessage(t *testing.T, path, check string) string {
	if m := messagesOf(t, path, check); len(m) > 0 {
		return m[0]
	}
	return ""
}
