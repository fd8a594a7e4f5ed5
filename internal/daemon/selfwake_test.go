package daemon

import (
	"context"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/delivery"
	"github.com/ai-heart/ai-heart/internal/hook"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// selfWakeWorld is a tmux agent with an idle chamber of 2 s whose client
// (Claude Code's Stop) says what will wake it by itself. Fake time starts
// at midnight: a cron of every minute is due at 00:01.
func selfWakeWorld(t *testing.T) (*harness, *recorder, *workspace.Workspace) {
	cfg := testConfig(t)
	cfg.Pulse.Interval = config.Duration(time.Second)
	cfg.Idle.After = config.Duration(2 * time.Second)
	cfg.Idle.SelfWakeupMargin = config.Duration(3 * time.Second)
	cfg.Idle.ParkedMax = config.Duration(2 * time.Minute)
	cfg.Thresholds.InactivityWarning, cfg.Thresholds.InactivityError = config.Duration(time.Hour), config.Duration(2*time.Hour)
	rec := &recorder{method: config.DeliveryTmux}
	h := startFake(t, cfg, rec.factory)
	ws, _ := workspace.New(cfg.Workspace, nil)
	time.Sleep(100 * time.Millisecond)
	synctest.Wait()
	return h, rec, ws
}

func countWith(ps []string, word string) int {
	n := 0
	for _, p := range ps {
		if strings.Contains(p, word) {
			n++
		}
	}
	return n
}

// A session parked on its own wakeup gets no idle wakeup on top; the
// cron fires (the client starts a turn) and the watchdog does nothing.
func TestSelfWakeupFires(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h, rec, ws := selfWakeWorld(t)
		said(t, ws, hook.Event{Kind: hook.TurnStart})
		said(t, ws, hook.Event{Kind: hook.TurnEnd, Crons: []hook.Cron{{ID: "w1", Schedule: "* * * * *"}}})
		time.Sleep(time.Minute) // 00:01:00: the cron is due
		synctest.Wait()
		if ps := rec.prompts(); len(ps) != 0 {
			t.Fatalf("wakeups %q while parked on the client's own wakeup: want none", ps)
		}
		said(t, ws, hook.Event{Kind: hook.TurnStart}) // it fired
		writeLog(t, ws, workspace.Thinking)
		said(t, ws, hook.Event{Kind: hook.TurnEnd, Crons: []hook.Cron{{ID: "w1", Schedule: "* * * * *"}}})
		time.Sleep(30 * time.Second)
		synctest.Wait()
		if ps := rec.prompts(); len(ps) != 0 || h.hasAlert("self_wakeup", "warning") {
			t.Fatalf("wakeups %q, alerts %v: want none, the client woke itself", ps, alertsOf(t, h.alerts))
		}
	})
}

// A cron that has not fired by its time plus the margin is alerted and
// delivered once by the watchdog; the idle wakeup waits as before.
func TestSelfWakeupMissed(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h, rec, ws := selfWakeWorld(t)
		said(t, ws, hook.Event{Kind: hook.TurnStart})
		said(t, ws, hook.Event{Kind: hook.TurnEnd, Crons: []hook.Cron{{ID: "w1", Schedule: "* * * * *"}}})
		said(t, ws, hook.Event{Kind: hook.SessionEnd}) // its session-only cron dies with it
		time.Sleep(time.Minute + 2*time.Second)        // 00:01:02, within the margin
		synctest.Wait()
		if ps := rec.prompts(); len(ps) != 0 || h.hasAlert("self_wakeup", "warning") {
			t.Fatalf("wakeups %q within the margin: want none", ps)
		}
		time.Sleep(2 * time.Second) // 00:01:04: the margin is over
		synctest.Wait()
		ps := rec.prompts()
		if len(ps) != 1 || countWith(ps, "did not fire") != 1 || !h.hasAlert("self_wakeup", "warning") {
			t.Fatalf("wakeups %q, alerts %v: want one wakeup in the cron's place and its alert", ps, alertsOf(t, h.alerts))
		}
		time.Sleep(time.Minute)
		synctest.Wait()
		if n := countWith(rec.prompts(), "did not fire"); n != 1 {
			t.Fatalf("%d wakeups for one missed cron: want 1", n)
		}
	})
}

// Background work, or a cron an hour off, holds the idle wakeup off for
// idle.parked_max, then it comes (the report is the agent's word).
func TestParkedIsBounded(t *testing.T) {
	for _, tc := range []struct {
		name string
		e    hook.Event
	}{
		{"background work", hook.Event{Kind: hook.TurnEnd, Tasks: hook.MaxTasks}},
		{"a cron a year off", hook.Event{Kind: hook.TurnEnd, Crons: []hook.Cron{{ID: "y", Schedule: "0 0 1 1 *"}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				h, rec, ws := selfWakeWorld(t)
				said(t, ws, hook.Event{Kind: hook.TurnStart})
				said(t, ws, tc.e)
				time.Sleep(2*time.Minute - 2*time.Second)
				synctest.Wait()
				if ps := rec.prompts(); len(ps) != 0 {
					t.Fatalf("wakeups %q while parked: want none before idle.parked_max", ps)
				}
				time.Sleep(4 * time.Second)
				synctest.Wait()
				if ps := rec.prompts(); len(ps) != 1 || countWith(ps, "did not fire") != 0 || !h.hasAlert("self_wakeup", "info") {
					t.Fatalf("wakeups %q, alerts %v: want the idle wakeup once idle.parked_max is over, and the cap said", ps, alertsOf(t, h.alerts))
				}
			})
		})
	}
}

// A model the client switched to by itself is said, with whether the
// prices know it.
func TestModelSwitchAlerted(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h, _, ws := selfWakeWorld(t)
		said(t, ws, hook.Event{Kind: hook.ModelSwitch, Detail: "command", Model: "claude-opus-4-5"})
		said(t, ws, hook.Event{Kind: hook.ModelSwitch, Detail: "auto", Model: "claude-sonnet-4-5"})
		time.Sleep(1100 * time.Millisecond)
		synctest.Wait()
		var got []string
		for _, a := range alertsOf(t, h.alerts) {
			if a["check"] == "model" {
				got = append(got, a["message"].(string))
			}
		}
		if len(got) != 1 || !strings.Contains(got[0], "claude-sonnet-4-5 is not in prices") {
			t.Fatalf("model alerts %q: want one, for the client's own switch", got)
		}
	})
}

// What a headless run's client said of its own session is alerted: a turn
// loop it ended for its own reason names the run's fate, lost writes are
// an error.
func TestRunSaid(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig(t)
		cfg.Schedule.Every = config.Duration(time.Second)
		cfg.Agent.Delivery = config.DeliveryExec
		h := startFake(t, cfg, func(config.Delivery, *workspace.Workspace) (delivery.Deliverer, error) {
			return &fakeDeliverer{method: config.DeliveryExec, deliver: func(context.Context, string) (delivery.Result, error) {
				return delivery.Result{Reply: "done", Ended: "budget_exhausted", WritesLost: "ENOSPC: transcript", State: "idle"}, nil
			}}, nil
		})
		time.Sleep(1100 * time.Millisecond)
		synctest.Wait()
		var ends []string
		for _, a := range alertsOf(t, h.alerts) {
			if a["check"] == "run_end" {
				ends = append(ends, a["message"].(string))
			}
		}
		if len(ends) == 0 || !strings.Contains(ends[0], "terminal_reason budget_exhausted") || !h.hasAlert("client_disk", "error") {
			t.Fatalf("alerts %v: want the run's end named (budget_exhausted) and the lost writes an error", alertsOf(t, h.alerts))
		}
	})
}

// retryingDeliverer is an exec run whose client announces a retry wait.
type retryingDeliverer struct {
	fakeDeliverer
	until time.Time
}

func (r *retryingDeliverer) RetryUntil(now time.Time) (time.Time, bool) {
	if now.Before(r.until) {
		return r.until, false
	}
	return time.Time{}, false
}

// While the running client waits out a retry it announced, inactivity is
// not judged; after the wait it counts from the wait's end.
func TestRetryWaitHoldsInactivity(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig(t) // inactivity: warning 2s, error 4s
		cfg.Schedule.Every = config.Duration(time.Second)
		cfg.Agent.Delivery = config.DeliveryExec
		start := time.Now()
		d := &retryingDeliverer{until: start.Add(11 * time.Second)}
		d.fakeDeliverer = fakeDeliverer{method: config.DeliveryExec, deliver: func(ctx context.Context, _ string) (delivery.Result, error) {
			<-ctx.Done() // the run hangs in its retries
			return delivery.Result{}, ctx.Err()
		}}
		h := startFake(t, cfg, func(config.Delivery, *workspace.Workspace) (delivery.Deliverer, error) { return d, nil })
		time.Sleep(12 * time.Second) // the run began at 1 s; the wait ends at 11 s
		synctest.Wait()
		if h.hasAlert("inactivity", "warning") || h.hasAlert("inactivity", "error") {
			t.Fatalf("inactivity alerts during an announced retry wait: %v", alertsOf(t, h.alerts))
		}
		time.Sleep(4 * time.Second) // 15 s: 4 s after the wait, its error
		synctest.Wait()
		if !h.hasAlert("inactivity", "error") {
			t.Fatalf("alerts %v: want inactivity's error 4 s after the wait", alertsOf(t, h.alerts))
		}
	})
}
