package daemon

import (
	"fmt"
	"testing"
	"testing/synctest"
	"time"

	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/hook"
	"github.com/ai-heart/ai-heart/internal/state"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// said writes a hook event at the (fake) present, as heart-hook does.
func said(t *testing.T, ws *workspace.Workspace, e hook.Event) {
	t.Helper()
	e.Time, e.Client = time.Now(), hook.ClaudeCode
	if e.Name == "" {
		e.Name = string(e.Kind)
	}
	if err := hook.Append(ws.Root, e); err != nil {
		t.Fatal(err)
	}
}

// With hooks, a tmux wakeup is answered by the end of the agent's turn, not
// by a log; a turn of tool calls longer than the inactivity error with no
// checkpoint is busy, not inactive; the state file says what the client
// is doing.
func TestHooksAnswerTurnsAndProveLife(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig(t)
		cfg.Schedule.Every = config.Duration(time.Second)
		rec := &recorder{method: config.DeliveryTmux}
		h := startFake(t, cfg, rec.factory)
		ws, _ := workspace.New(cfg.Workspace, nil)
		time.Sleep(1050 * time.Millisecond)
		synctest.Wait()
		if n := len(rec.prompts()); n != 1 {
			t.Fatalf("%d wakeups, want the first", n)
		}
		said(t, ws, hook.Event{Kind: hook.TurnStart})
		// 6 s of tool calls (inactivity error at 4 s), a log half-way.
		for i := range 30 {
			said(t, ws, hook.Event{Kind: hook.Tool, Tool: "Bash", Input: fmt.Sprint(i)})
			if i == 15 {
				writeLog(t, ws, workspace.Thinking)
			}
			time.Sleep(200 * time.Millisecond)
			synctest.Wait()
		}
		if h.hasAlert("inactivity", "warning") || h.hasAlert("inactivity", "error") {
			t.Fatalf("inactivity alert during a busy turn: %v", alertsOf(t, h.alerts))
		}
		if n := len(rec.prompts()); n != 1 {
			t.Fatalf("%d wakeups during the turn: a log mid-turn answered it", n)
		}
		st := h.state()
		c := st.Client
		if c == nil || c.Mode != state.ClientInTurn || c.LastTool != "Bash" || c.ToolCalls != 30 || st.Checks["inactivity"].Message == "" {
			t.Fatalf("client state %+v, inactivity %q: want in a turn, 30 Bash calls", c, st.Checks["inactivity"].Message)
		}
		if msg := st.Checks["inactivity"].Message; msg[:5] != "busy:" {
			t.Fatalf("inactivity message %q, want it to say busy", msg)
		}
		said(t, ws, hook.Event{Kind: hook.TurnEnd})
		time.Sleep(1100 * time.Millisecond) // the pulse sees the turn's end; the next wakeup goes out
		synctest.Wait()
		if n := len(rec.prompts()); n != 2 {
			t.Fatalf("%d wakeups after the turn's end, want 2", n)
		}
		if c := h.state().Client; c == nil || (c.Mode != state.ClientWaiting && c.Mode != state.ClientInTurn) {
			t.Fatalf("client state after the turn = %+v", c)
		}
	})
}

// The same failing call again and again is a tool_loop: a warning, then an
// error that starts recovery. A question to the user is waiting_for_you,
// and inactivity holds off while it lasts. A hook event dated in the future
// is not believed.
func TestHooksLoopAndQuestion(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig(t)
		rec := &recorder{method: config.DeliveryTmux}
		h := startFake(t, cfg, rec.factory)
		ws, _ := workspace.New(cfg.Workspace, nil)
		for range 8 {
			said(t, ws, hook.Event{Kind: hook.Tool, Tool: "Bash", Input: "npm test"})
		}
		time.Sleep(150 * time.Millisecond)
		synctest.Wait()
		if !h.hasAlert("tool_loop", "warning") || h.hasAlert("tool_loop", "error") {
			t.Fatalf("after 8 same calls: %v", alertsOf(t, h.alerts))
		}
		for range 8 {
			said(t, ws, hook.Event{Kind: hook.Tool, Tool: "Bash", Input: "npm test"})
		}
		time.Sleep(150 * time.Millisecond)
		synctest.Wait()
		if !h.hasAlert("tool_loop", "error") {
			t.Fatalf("after 16 same calls: %v", alertsOf(t, h.alerts))
		}
		if st := h.state(); !st.Recovery.Active || st.Recovery.Check != "tool_loop" {
			t.Fatalf("recovery = %+v, want it started by the tool_loop error", st.Recovery)
		}
		said(t, ws, hook.Event{Kind: hook.Tool, Tool: "Read", Input: "log"})
		said(t, ws, hook.Event{Kind: hook.Ask, Tool: "AskUserQuestion", Detail: "question"})
		time.Sleep(6 * time.Second) // past the inactivity error
		synctest.Wait()
		if !h.hasAlert("waiting_for_you", "warning") || !h.hasAlert("tool_loop", "ok") {
			t.Fatalf("want waiting_for_you and the loop over: %v", alertsOf(t, h.alerts))
		}
		if h.hasAlert("inactivity", "error") {
			t.Fatalf("inactivity error while the agent waited for the user: %v", alertsOf(t, h.alerts))
		}
		if c := h.state().Client; c == nil || c.Mode != state.ClientWaitingForYou || c.Asking != "question" {
			t.Fatalf("client state = %+v, want waiting for you", c)
		}
		e := hook.Event{Time: time.Now().Add(24 * time.Hour), Client: hook.ClaudeCode, Name: "PreToolUse", Kind: hook.Tool, Tool: "Forged"}
		if err := hook.Append(ws.Root, e); err != nil {
			t.Fatal(err)
		}
		time.Sleep(150 * time.Millisecond)
		synctest.Wait()
		if c := h.state().Client; c.LastTool == "Forged" {
			t.Fatalf("an event dated tomorrow was believed: %+v", c)
		}
	})
}
