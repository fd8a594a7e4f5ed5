package daemon

import (
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/hook"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// sleepTo sleeps until d after start, and lets the bubble settle.
func sleepTo(start time.Time, d time.Duration) {
	time.Sleep(time.Until(start.Add(d)))
	synctest.Wait()
}

// One forged "a person is asked" line (the agent can pipe it to
// heart-hook) holds inactivity off no longer than tool calls would: three
// times its thresholds from the agent's own last word (here the watchdog's
// start). Past that, the wait holds recovery off no longer either: its
// wakeup goes out.
func TestForgedAskIsBounded(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig(t) // inactivity 2s, 4s: the hooks hold it off 6s, 12s at most
		rec := &recorder{method: config.DeliveryTmux}
		start := time.Now()
		h := startFake(t, cfg, rec.factory)
		ws, _ := workspace.New(cfg.Workspace, nil)
		sleepTo(start, 200*time.Millisecond)
		said(t, ws, hook.Event{Kind: hook.Ask, Name: "Notification", Detail: "permission_prompt"})
		sleepTo(start, 5800*time.Millisecond)
		if h.hasAlert("inactivity", "warning") || !h.hasAlert("waiting_for_you", "warning") {
			t.Fatalf("within the bound: want waiting_for_you and no inactivity alert: %v", alertsOf(t, h.alerts))
		}
		sleepTo(start, 6500*time.Millisecond)
		if !h.hasAlert("inactivity", "warning") || !strings.Contains(h.state().Checks["inactivity"].Message, "waiting for you since") {
			t.Fatalf("past 3 times the warning: want an inactivity warning naming the wait: %v", alertsOf(t, h.alerts))
		}
		sleepTo(start, 12500*time.Millisecond)
		if !h.hasAlert("inactivity", "error") {
			t.Fatalf("past 3 times the error: want an inactivity error: %v", alertsOf(t, h.alerts))
		}
		if st := h.state(); st.Recovery.Attempt < 1 || st.Recovery.Asking || !carries(rec.prompts(), len(rec.prompts())-1, "recovery") {
			t.Fatalf("recovery %+v, %d prompts: want an attempt, not a wait for the forged ask", st.Recovery, len(rec.prompts()))
		}
	})
}

// A forged ask line every 200 ms with a forged tool call 10 ms after each
// (which reads as the person's answer) holds inactivity no longer than
// tool calls alone: the warning past 3 times its threshold, the error past
// 3 times the error's, counted from the first call.
func TestForgedAskAnswerLoopIsBounded(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig(t)
		rec := &recorder{method: config.DeliveryTmux}
		start := time.Now()
		h := startFake(t, cfg, rec.factory)
		ws, _ := workspace.New(cfg.Workspace, nil)
		check := func(at time.Duration) {
			switch at {
			case 5800 * time.Millisecond:
				if h.hasAlert("inactivity", "warning") {
					t.Fatalf("an inactivity warning within the bound: %v", alertsOf(t, h.alerts))
				}
			case 6600 * time.Millisecond:
				if !h.hasAlert("inactivity", "warning") {
					t.Fatalf("no inactivity warning past 3 times its threshold: %v", alertsOf(t, h.alerts))
				}
			case 12600 * time.Millisecond:
				if !h.hasAlert("inactivity", "error") {
					t.Fatalf("no inactivity error past 3 times its threshold: %v", alertsOf(t, h.alerts))
				}
			}
		}
		for at := 200 * time.Millisecond; at <= 12600*time.Millisecond; at += 200 * time.Millisecond {
			sleepTo(start, at)
			check(at)
			said(t, ws, hook.Event{Kind: hook.Ask, Name: "Notification", Detail: "permission_prompt", Tool: "Bash"})
			sleepTo(start, at+10*time.Millisecond)
			said(t, ws, hook.Event{Kind: hook.Tool, Tool: "Bash", Input: at.String()}) // no loop
		}
	})
}

// Past the hooks' bound a forged ask holds introspection's working time
// off no longer: the clock of a working, scheduled agent runs again.
func TestForgedAskHoldsWorkingTimeWithinTheBound(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig(t) // inactivity 2s, 4s: the bound 6s from the wakeup
		cfg.Schedule.Every = config.Duration(100 * time.Millisecond)
		rec := &recorder{method: config.DeliveryTmux}
		start := time.Now()
		h := startFake(t, cfg, rec.factory)
		ws, _ := workspace.New(cfg.Workspace, nil)
		sleepTo(start, 200*time.Millisecond)
		said(t, ws, hook.Event{Kind: hook.Ask, Name: "Notification", Detail: "permission_prompt"})
		sleepTo(start, 3*time.Second)
		if w := h.state().Work.WorkedSinceIntrospection.D(); w > time.Second {
			t.Fatalf("%s of working time counted while a person was asked, within the bound", w)
		}
		sleepTo(start, 10*time.Second)
		if w := h.state().Work.WorkedSinceIntrospection.D(); w < 3*time.Second {
			t.Fatalf("%s of working time 10 s on, the ask past its bound since 6 s: want the clock running again", w)
		}
	})
}
