package daemon

import (
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/delivery"
	"github.com/ai-heart/ai-heart/internal/hook"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// oneStance reports whether text speaks to the agent in one voice: busy
// ("at the next step of your work") or stuck ("stop what you were
// doing"), not both.
func oneStance(text string) bool {
	low := strings.ToLower(text)
	busy := strings.Contains(low, "at the next step of your work")
	stuck := strings.Contains(low, "stop what you were doing") || strings.Contains(low, "treats you as stuck")
	return !(busy && stuck)
}

// A turn whose tool calls stop (the model hangs after one) reaches the
// inactivity error within the busy window: one decision says how the agent
// is spoken to, and the recovery prompt, the inactivity notice beside it
// and the status's notices all say the same, for the whole attempt.
func TestRecoverySpeaksWithOneStance(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig(t) // inactivity 2s, 4s
		cfg.Agent.Client = "claude-code"
		cfg.Recovery = config.Recovery{MaxAttempts: 2, MaxWaitCycles: 20}
		p := newPaneFake()
		p.show(realScreen(t, "idle"))
		start := time.Now()
		h := startFake(t, cfg, func(config.Delivery, *workspace.Workspace) (delivery.Deliverer, error) { return p, nil })
		ws, _ := workspace.New(cfg.Workspace, nil)
		sleepTo(start, 200*time.Millisecond)
		said(t, ws, hook.Event{Kind: hook.TurnStart, Name: "UserPromptSubmit"})
		sleepTo(start, 500*time.Millisecond)
		said(t, ws, hook.Event{Kind: hook.Tool, Name: "PreToolUse", Tool: "Bash", Input: "sleep 1"})
		sleepTo(start, 1500*time.Millisecond)
		said(t, ws, hook.Event{Kind: hook.ToolDone, Name: "PostToolUse", Tool: "Bash"})
		for at := 2 * time.Second; at <= 8*time.Second; at += 100 * time.Millisecond {
			sleepTo(start, at)
			st := h.state()
			if all := strings.Join(st.Notices, "\n\n"); !oneStance(all) {
				t.Fatalf("at %s the status's notices speak two ways:\n%s", at, all)
			}
		}
		_, typed := p.counts()
		found := false
		for _, x := range typed {
			found = found || strings.Contains(x, "RECOVERY")
			if !oneStance(x) {
				t.Fatalf("a prompt speaks two ways:\n%s", x)
			}
		}
		if !found {
			t.Fatalf("no recovery prompt typed: %q", typed)
		}
	})
}
