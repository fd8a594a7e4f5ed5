package clients

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Gemini CLI as the old system's users run it: interactive, in a real tmux
// pane, the watchdog typing each heartbeat in. Every heartbeat is answered
// (a checkpoint, then an activity log, which answers a tmux wakeup); while
// the first turn is slow, the heartbeats that fall due are coalesced, never
// typed on top of it; and the agent stays healthy.
func TestGeminiCLIInTmux(t *testing.T) {
	client(t, "gemini") // skip early when it is not installed
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
	sock, _ := w.geminiInTmux(s)

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
