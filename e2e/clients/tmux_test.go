package clients

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/testutil"
)

// Gemini CLI as the old system's users run it: interactive, in a real tmux
// pane, the watchdog typing each heartbeat in. Every heartbeat is answered
// (a checkpoint, then an activity log, which answers a tmux wakeup); while
// the first turn is slow, the heartbeats that fall due are coalesced, never
// typed on top of it; and the agent stays healthy.
func TestGeminiCLIInTmux(t *testing.T) {
	gemini := client(t, "gemini")
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed")
	}
	w := newWorld(t)
	theme := "artifacts/20250101000000_tides/histories"
	if err := os.MkdirAll(filepath.Join(w.ws, theme), 0o755); err != nil {
		t.Fatal(err)
	}
	s := &script{PerTurn: true, SlowFirstTurn: 12 * time.Second, Final: "Logged this heartbeat's step.", Calls: []call{
		{Tool: "checkpoint", Args: map[string]any{"current_activity": "scripted work in progress"}},
		{Tool: "create_activity_log", Args: map[string]any{"activity_type": "thinking", "activity_content": []string{"one small step"},
			"theme_start_id": "20250101000000", "theme_directory_part": "tides"}},
	}}
	url := geminiStandIn(t, s)
	w.writeJSON(".gemini/settings.json", map[string]any{"security": map[string]any{"auth": map[string]any{"selectedType": "gemini-api-key"}}})
	w.writeJSON(".gemini/trustedFolders.json", map[string]any{w.ws: "TRUST_FOLDER"})

	sock := filepath.Join(t.TempDir(), "tmux.sock")
	args := []string{"-f", "/dev/null", "-S", sock, "new-session", "-d", "-s", "agent", "-x", "160", "-y", "50", "-c", w.ws,
		"-e", "HOME=" + w.home, "-e", "GEMINI_API_KEY=standin", "-e", "GOOGLE_GEMINI_BASE_URL=" + url, "-e", "NO_COLOR=1",
		// An interactive user's terminal is not CI: with CI set (as .ci/run
		// does), Gemini CLI's TUI draws nothing until it exits.
		"-e", "CI=false", gemini}
	if out, err := exec.Command("tmux", args...).CombinedOutput(); err != nil {
		t.Fatalf("tmux: %v\n%s", err, out)
	}
	pane := func() string {
		out, _ := exec.Command("tmux", "-S", sock, "capture-pane", "-p", "-t", "agent").Output()
		return string(out)
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("the pane:\n%s", pane())
		}
		testutil.KillTmux(sock, 5*time.Second) // Gemini CLI ignores the hang-up
	})
	w.waitFor("Gemini CLI's input box", 60*time.Second, func() bool { return strings.Contains(pane(), "Type your message") })

	w.runTmux(sock, 5*time.Second)
	w.waitFor("three heartbeats answered in the pane", 150*time.Second, func() bool {
		logs, _ := filepath.Glob(filepath.Join(w.ws, theme, "*.md"))
		return len(logs) >= 3
	})
	s.mu.Lock()
	prompts := append([]string(nil), s.prompts...)
	s.mu.Unlock()
	var beats int
	for _, p := range prompts {
		n := strings.Count(p, "Heartbeat: ")
		if n > 1 {
			t.Fatalf("heartbeats piled up in one message:\n%s", p)
		}
		beats += n
	}
	if beats < 3 {
		t.Fatalf("the model saw %d heartbeats in %d turns: %q", beats, len(prompts), prompts)
	}
	if b, _ := os.ReadFile(w.alerts); strings.Contains(string(b), `"check":"inactivity"`) {
		t.Fatalf("inactivity alert for an agent that answered every heartbeat: %s", b)
	}
	c := w.counters()
	if co, _ := c["coalesced"].(float64); co < 1 {
		t.Fatalf("no heartbeat was coalesced during the slow first turn: %v", c)
	}
	t.Logf("counters: %v", c)
}
