package daemon

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/hook"
	"github.com/ai-heart/ai-heart/internal/state"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// Where the client's hooks speak, an activity log after the wakeup answers
// it as the turn's end does: an agent that wrote its log and stays in its
// turn (a status call, nothing more) is waiting, not stalled, and no
// recovery comes. Tool calls outside any wakeup (a setup turn whose start
// was never reported) open no working stretch of their own.
func TestHookedLogAnswersTheWakeup(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig(t)
		cfg.Schedule.Every = config.Duration(20 * time.Second)
		rec := &recorder{method: config.DeliveryTmux}
		h := startFake(t, cfg, rec.factory)
		ws, _ := workspace.New(cfg.Workspace, nil)
		// Setup outside any wakeup: tool calls, a log, no prompt reported.
		said(t, ws, hook.Event{Kind: hook.SessionStart})
		said(t, ws, hook.Event{Kind: hook.Tool, Tool: "mcp__mcp-heart__start_theme"})
		writeLog(t, ws, workspace.ThemeStart)
		time.Sleep(6 * time.Second) // past the inactivity error (4 s)
		synctest.Wait()
		if h.hasAlert("inactivity", "warning") || h.hasAlert("inactivity", "error") {
			t.Fatalf("tool calls outside any wakeup opened a working stretch: %v", alertsOf(t, h.alerts))
		}
		time.Sleep(14100 * time.Millisecond) // the first wakeup at 20 s
		synctest.Wait()
		if n := len(rec.prompts()); n != 1 {
			t.Fatalf("%d wakeups, want the first", n)
		}
		said(t, ws, hook.Event{Kind: hook.TurnStart})
		said(t, ws, hook.Event{Kind: hook.Tool, Tool: "Read"})
		time.Sleep(time.Second)
		writeLog(t, ws, workspace.Observation)
		said(t, ws, hook.Event{Kind: hook.Tool, Tool: "mcp__mcp-heart__get_heartbeat_elapsed_time"})
		time.Sleep(8 * time.Second) // in the turn, no Stop: twice the inactivity error
		synctest.Wait()
		if h.hasAlert("inactivity", "error") || h.hasAlert("recovery", "warning") {
			t.Fatalf("a log did not answer the wakeup under hooks: %v", alertsOf(t, h.alerts))
		}
		if w := h.state().Work; w.Mode != state.WorkWaiting {
			t.Fatalf("work %+v after the log, want waiting", w)
		}
	})
}
