package daemon

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/ai-heart/ai-heart/internal/clients/claudecode"
	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/hook"
	"github.com/ai-heart/ai-heart/internal/state"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// said writes a hook event at the (fake) present, as heart-hook does.
func said(t *testing.T, ws *workspace.Workspace, e hook.Event) {
	t.Helper()
	e.Time, e.Client = time.Now(), claudecode.Name
	if e.Name == "" {
		e.Name = string(e.Kind)
	}
	if err := hook.Append(ws.Root, e); err != nil {
		t.Fatal(err)
	}
}

// With hooks, a tmux wakeup is answered by the end of the agent's turn or
// by a log after it, whichever comes first; a turn of tool calls longer than the inactivity error with no
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
		if n := len(rec.prompts()); n != 2 {
			t.Fatalf("%d wakeups during the turn, want 2: the log answered the first, the second waits for an answer", n)
		}
		st := h.state()
		c := st.Client
		if c == nil || c.Mode != state.ClientInTurn || c.LastTool != "Bash" || c.ToolCalls != 30 || st.Checks["inactivity"].Message == "" {
			t.Fatalf("client state %+v, inactivity %q: want in a turn, 30 Bash calls", c, st.Checks["inactivity"].Message)
		}
		// mcp-heart measures from what the checks counted from.
		if st.Work.Mode != state.WorkWorking || st.Work.Baseline == nil {
			t.Fatalf("work %+v: want working, with the baseline the checks count from", st.Work)
		}
		if msg := st.Checks["inactivity"].Message; msg[:5] != "busy:" {
			t.Fatalf("inactivity message %q, want it to say busy", msg)
		}
		said(t, ws, hook.Event{Kind: hook.TurnEnd})
		// The client submits the wakeup typed during the turn as the next
		// prompt: that turn's end answers it.
		said(t, ws, hook.Event{Kind: hook.TurnStart})
		said(t, ws, hook.Event{Kind: hook.TurnEnd})
		time.Sleep(1100 * time.Millisecond) // the pulse sees the turn's end; the next wakeup goes out
		synctest.Wait()
		if n := len(rec.prompts()); n != 3 {
			t.Fatalf("%d wakeups after the turn's end, want 3", n)
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
		if st := h.state(); !st.Recovery.Active || st.Recovery.Check != "tool_loop" || !carries(st.Notices, 0, "recovery") {
			t.Fatalf("recovery = %+v, notices %q: want it started by the tool_loop error, its notice tagged", st.Recovery, st.Notices)
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
		e := hook.Event{Time: time.Now().Add(24 * time.Hour), Client: claudecode.Name, Name: "PreToolUse", Kind: hook.Tool, Tool: "Forged"}
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

// A tmux wakeup answered by a Claude Code turn is booked with what the turn
// used, read from the session transcript the Stop hook names (only the
// turn's messages, each once); a turn that said only [IDLE] is a ghost.
func TestHookedTurnsAreBooked(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig(t)
		cfg.Schedule.Every = config.Duration(time.Second)
		rec := &recorder{method: config.DeliveryTmux}
		h := startFake(t, cfg, rec.factory)
		ws, _ := workspace.New(cfg.Workspace, nil)
		session := filepath.Join(t.TempDir(), "session.jsonl")
		msg := func(at time.Time, id string, in, out int) string {
			return fmt.Sprintf(`{"type":"assistant","timestamp":%q,"message":{"id":%q,"model":"claude-x","usage":{"input_tokens":%d,"output_tokens":%d,"cache_read_input_tokens":0,"cache_creation_input_tokens":0}}}`+"\n", at.UTC().Format(time.RFC3339Nano), id, in, out)
		}
		before := msg(time.Now(), "old", 1000, 1000) // an earlier turn's
		time.Sleep(1050 * time.Millisecond)
		synctest.Wait()
		if n := len(rec.prompts()); n != 1 {
			t.Fatalf("%d wakeups, want 1", n)
		}
		said(t, ws, hook.Event{Kind: hook.TurnStart})
		now := time.Now()
		lines := before + msg(now, "m1", 100, 7) + msg(now, "m1", 100, 20) + msg(now, "m2", 150, 30)
		if err := os.WriteFile(session, []byte(lines), 0o644); err != nil {
			t.Fatal(err)
		}
		said(t, ws, hook.Event{Kind: hook.TurnEnd, Transcript: session})
		time.Sleep(time.Second)
		synctest.Wait()
		said(t, ws, hook.Event{Kind: hook.TurnStart}) // the next wakeup's turn
		said(t, ws, hook.Event{Kind: hook.TurnEnd, Ghost: true, Transcript: filepath.Join(t.TempDir(), "none.jsonl")})
		time.Sleep(1100 * time.Millisecond)
		synctest.Wait()
		st := h.state()
		worked := st.Cost.Today.By["schedule"]["worked"]
		ghost := st.Cost.Today.By["schedule"]["ghost"]
		if worked.Runs != 1 || worked.Tokens.Input != 250 || worked.Tokens.Output != 50 {
			t.Fatalf("worked = %+v, want 1 run of 250 input and 50 output tokens", worked)
		}
		if ghost.Runs != 1 || ghost.Unknown != 1 || st.Counters.Ghosts != 1 {
			t.Fatalf("ghost = %+v, ghosts %d: want one ghost of unknown usage", ghost, st.Counters.Ghosts)
		}
	})
}

// Where the client's hooks are heard, the end of a turn answers the idle
// wakeup, so the built-in tmux idle prompt offers [IDLE] rather than a log
// saying nothing happened; without hooks it still asks for the log.
func TestIdlePromptWithHooksOffersIdleToken(t *testing.T) {
	for _, hooked := range []bool{false, true} {
		synctest.Test(t, func(t *testing.T) {
			cfg := testConfig(t)
			cfg.Agent.Delivery = config.DeliveryTmux
			cfg.Idle = config.Idle{After: config.Duration(600 * time.Millisecond), Prompt: config.IdlePrompt(config.DeliveryTmux, cfg.Language)}
			rec := &recorder{method: config.DeliveryTmux}
			startFake(t, cfg, rec.factory)
			ws, _ := workspace.New(cfg.Workspace, nil)
			writeLog(t, ws, workspace.Thinking) // a workspace in use: a fresh one is asked to start a theme
			if hooked {
				said(t, ws, hook.Event{Kind: hook.SessionStart})
			}
			time.Sleep(750 * time.Millisecond)
			synctest.Wait()
			p := rec.prompts()
			if len(p) != 1 {
				t.Fatalf("hooked=%v: %d wakeups, want the idle one", hooked, len(p))
			}
			if got := strings.Contains(p[0], "[IDLE]"); got != hooked || strings.Contains(p[0], "activity log saying so") == hooked {
				t.Fatalf("hooked=%v: idle prompt %q", hooked, p[0])
			}
		})
	}
}

// An idle wakeup is not sent when the schedule's next one is due sooner
// than idle.after: the scheduled wakeup wakes the agent anyway, and the two
// started two runs a moment apart.
func TestIdleGivesWayToAScheduledWakeupDueSoon(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig(t)
		cfg.Schedule.Every = config.Duration(700 * time.Millisecond)
		cfg.Idle = config.Idle{After: config.Duration(600 * time.Millisecond), Prompt: "You have been idle. Explore."}
		rec := &recorder{method: config.DeliveryExec}
		startFake(t, cfg, rec.factory)
		time.Sleep(750 * time.Millisecond)
		synctest.Wait()
		p := rec.prompts()
		if len(p) != 1 || strings.Contains(p[0], "You have been idle") {
			t.Fatalf("wakeups by 750 ms: %q, want the scheduled one alone", p)
		}
	})
}

// Further off than a moment, the schedule does not hold the idle wakeup
// back: with schedule.every under twice idle.after it never came.
func TestIdleComesWhenTheScheduleIsFurtherOff(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig(t)
		cfg.Schedule.Every = config.Duration(time.Second)
		cfg.Idle = config.Idle{After: config.Duration(600 * time.Millisecond), Prompt: "You have been idle. Explore."}
		rec := &recorder{method: config.DeliveryExec}
		startFake(t, cfg, rec.factory)
		time.Sleep(750 * time.Millisecond)
		synctest.Wait()
		if p := rec.prompts(); len(p) != 1 || !strings.Contains(p[0], "You have been idle") {
			t.Fatalf("wakeups by 750 ms: %q, want the idle one", p)
		}
	})
}
