package clients

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A turn busy in the client's own tools reads no heartbeat and no
// mcp-heart reply: the real Claude Code, woken headless in a workspace
// wired by init, runs one-second shell commands long past the inactivity
// warning, and the warning reaches its model all the same, handed over by
// the post-tool hook (additionalContext), once.
func TestClaudeCodeBusyTurnIsToldTheWarning(t *testing.T) {
	w := newHookedWorld(t, "claude-code")
	w.thresholds = wordThresholds
	s := steps("Bash")
	w.claudeExec(s, []string{"--allowedTools=Bash"})
	w.toldTheWarning(s)
}

// The same with Gemini CLI, its AfterTool hook's additionalContext.
func TestGeminiCLIBusyTurnIsToldTheWarning(t *testing.T) {
	w := newHookedWorld(t, "gemini")
	w.thresholds = wordThresholds
	s := steps("run_shell_command")
	w.geminiExec(s, []string{"--yolo"})
	w.toldTheWarning(s)
}

// wordThresholds: the hooks hold inactivity off for HooksAlone (3) times
// its thresholds, so the warning comes 6 s into a turn of tool calls alone.
const wordThresholds = "{inactivity_warning: 2s, inactivity_error: 5m, introspection: 30m}"

// steps is a turn of sixteen one-second shell commands with tool.
func steps(tool string) *script {
	s := &script{Final: "[IDLE]"}
	for i := range 16 {
		s.Calls = append(s.Calls, call{Builtin: tool, Args: map[string]any{"command": fmt.Sprintf("sleep 1; echo step %d", i)}})
	}
	return s
}

func (w *world) toldTheWarning(s *script) {
	t := w.t
	t.Cleanup(func() {
		if t.Failed() {
			b, _ := os.ReadFile(filepath.Join(w.ws, "stats", "hook_word.json"))
			t.Logf("alerts:\n%s\nword: %s\nhook events %v", tail(w.alertsText(), 3000), b, w.hookEvents())
		}
	})
	const lead = "A notice from the watchdog, received during your turn:"
	w.waitFor("the warning in the model's request", 120*time.Second, func() bool {
		return s.sent(lead) && s.sent("[warning] inactivity: ")
	})
	s.mu.Lock()
	last := s.bodies[len(s.bodies)-1]
	s.mu.Unlock()
	if n := strings.Count(last, lead); n != 1 {
		t.Fatalf("the model's latest request holds the notice %d times, want once", n)
	}
	if !w.hasAlert("inactivity", "warning") {
		t.Fatalf("no inactivity warning raised: %s", w.alertsText())
	}
}
