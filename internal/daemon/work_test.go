package daemon

import (
	"context"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/delivery"
	"github.com/ai-heart/ai-heart/internal/state"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// execAgent is an exec deliverer whose runs take run (fake time) and reply.
func execAgent(run time.Duration, calls *atomic.Int32) func(config.Delivery, *workspace.Workspace) (delivery.Deliverer, error) {
	return func(config.Delivery, *workspace.Workspace) (delivery.Deliverer, error) {
		return &fakeDeliverer{method: config.DeliveryExec, deliver: func(ctx context.Context, p string) (delivery.Result, error) {
			calls.Add(1)
			select {
			case <-time.After(run):
			case <-ctx.Done():
			}
			return delivery.Result{Reply: "done: checkpoint written"}, nil
		}}, nil
	}
}

// TestHeartStyleAgentWaitsHealthily: woken every 10s, an exec agent whose
// run answers each wakeup is waiting in between. Over 5 cycles, far past the
// 4s inactivity error and the 30s introspection on the wall clock, nothing
// alerts and no recovery starts.
func TestHeartStyleAgentWaitsHealthily(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig(t) // inactivity 2s/4s, introspection 30s
		cfg.Schedule.Every = config.Duration(10 * time.Second)
		cfg.Progress.After = 0 // its runs change no file: no_progress has tests of its own
		var calls atomic.Int32
		h := startFake(t, cfg, execAgent(time.Second, &calls))
		time.Sleep(5 * time.Second) // between the first two wakeups
		synctest.Wait()
		if w := h.state().Work; w.Mode != state.WorkWaiting {
			t.Fatalf("work between wakeups = %+v, want waiting", w)
		}
		// Stop between wakeups (the fifth, at 50s, ends at 51s; the next is
		// at 60s): stopping at 51s raced the fifth run's end, which a stop
		// turns into an ended run, working and unanswered.
		time.Sleep(50 * time.Second)
		synctest.Wait()
		h.stop()
		if n := calls.Load(); n != 5 {
			t.Fatalf("wakeups = %d, want 5 cycles", n)
		}
		for _, a := range alertsOf(t, h.alerts) {
			t.Errorf("alert while the agent answered every wakeup: %v", a)
		}
		st := h.state()
		if st.Recovery.Attempt != 0 || st.Checks["inactivity"].Message != "waiting for the next wakeup" {
			t.Fatalf("recovery %+v, inactivity %+v; want none and waiting", st.Recovery, st.Checks["inactivity"])
		}
		if w := st.Work.WorkedSinceIntrospection.D(); w < 4*time.Second || w > 6*time.Second { // pulses sample it every 100ms
			t.Fatalf("working time = %s, want the 5 runs of 1s (waiting does not count)", w)
		}
	})
}

// TestHangingExecAgentGetsTheError: a run that has not ended is work without
// an answer, so inactivity counts from the wakeup.
func TestHangingExecAgentGetsTheError(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig(t)
		cfg.Schedule.Every = config.Duration(10 * time.Second)
		var calls atomic.Int32
		h := startFake(t, cfg, execAgent(time.Minute, &calls))
		time.Sleep(10*time.Second + 3900*time.Millisecond) // the first wakeup is at 10s

		synctest.Wait()
		if h.hasAlert("inactivity", "error") || !h.hasAlert("inactivity", "warning") {
			t.Fatal("want a warning, not yet the error, just under 4s into the hanging run")
		}
		if w := h.state().Work; w.Mode != state.WorkWorking || w.Since == nil {
			t.Fatalf("work during the run = %+v, want working since the wakeup", w)
		}
		time.Sleep(300 * time.Millisecond)
		synctest.Wait()
		if !h.hasAlert("inactivity", "error") || !h.hasAlert("recovery", "warning") {
			t.Fatal("no inactivity error and recovery 4.2s into a hanging run")
		}
	})
}

// TestTmuxAgentIgnoringAHeartbeatGetsTheError: a typed heartbeat is answered
// only by an activity log; a checkpoint is progress, not an answer.
func TestTmuxAgentIgnoringAHeartbeatGetsTheError(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig(t)
		cfg.Schedule.Every = config.Duration(20 * time.Second)
		rec := &recorder{method: config.DeliveryTmux}
		h := startFake(t, cfg, rec.factory)
		time.Sleep(19900 * time.Millisecond) // before the first wakeup, at 20s: waiting
		synctest.Wait()
		if st := h.state(); st.Work.Mode != state.WorkWaiting || h.hasAlert("inactivity", "warning") {
			t.Fatalf("before any wakeup: work %+v, want waiting and no alert", st.Work)
		}
		time.Sleep(4300 * time.Millisecond) // 4.2s after the heartbeat at 20s
		synctest.Wait()
		if !h.hasAlert("inactivity", "error") {
			t.Fatal("no inactivity error 4.2s after an ignored heartbeat")
		}
		// An answer: a log after the wakeup. Then the agent waits, healthy.
		writeLog(t, h.ws(), workspace.Thinking)
		time.Sleep(200 * time.Millisecond)
		synctest.Wait()
		st := h.state()
		if st.Work.Mode != state.WorkWaiting || st.Checks["inactivity"].Level != "ok" {
			t.Fatalf("after the log: work %+v inactivity %+v, want waiting and ok", st.Work, st.Checks["inactivity"])
		}
		if st.Chambers.Schedule.InFlight {
			t.Fatalf("schedule chamber %+v: the log answered the wakeup, nothing is in flight", st.Chambers.Schedule)
		}
		time.Sleep(15 * time.Second) // waiting, however long, stays ok
		synctest.Wait()
		if st := h.state(); st.Checks["inactivity"].Level != "ok" {
			t.Fatalf("inactivity while waiting = %+v, want ok", st.Checks["inactivity"])
		}
		// The next heartbeat, at 40s, is delivered (not held back by the
		// answered one) and the agent is working again.
		time.Sleep(1 * time.Second)
		synctest.Wait()
		if st := h.state(); st.Work.Mode != state.WorkWorking {
			t.Fatalf("after the next heartbeat: work %+v, want working", st.Work)
		}
	})
}

// TestAlwaysOnAgentIsAlwaysWorking: with no schedule and no idle chamber the
// classic design holds: inactivity counts from the start with no wakeup.
func TestAlwaysOnAgentIsAlwaysWorking(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig(t) // schedule every 0, idle off
		h := startFake(t, cfg, nil)
		time.Sleep(2200 * time.Millisecond)
		synctest.Wait()
		if !h.hasAlert("inactivity", "warning") {
			t.Fatal("the always-on agent got no inactivity warning 2.2s after the start")
		}
		if w := h.state().Work; w.Mode != state.WorkAlways {
			t.Fatalf("work = %+v, want always", w)
		}
	})
}

func (h *harness) ws() *workspace.Workspace {
	ws, _ := workspace.New(h.cfg.Workspace, nil)
	return ws
}

// Runs shorter than a pulse, each starting and ending between two pulses,
// are working time all the same: introspection comes due on them (the
// scheduled wakeup now waits for its pulse, so no pulse ever saw one run).
func TestShortRunsBetweenPulsesAreWork(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig(t) // pulse 100ms, introspection 30s
		cfg.Schedule.Every = config.Duration(time.Second)
		var calls atomic.Int32
		h := startFake(t, cfg, execAgent(50*time.Millisecond, &calls))
		time.Sleep(41 * time.Second)
		synctest.Wait()
		st := h.state()
		worked := st.Work.WorkedSinceIntrospection.D()
		want := time.Duration(calls.Load()-1) * 50 * time.Millisecond
		if calls.Load() < 30 || worked < want {
			t.Fatalf("%d runs of 50ms, worked %s: want at least %s", calls.Load(), worked, want)
		}
	})
}

// mcp-heart reads working or waiting from the state file, so
// the file says working as soon as a wakeup is delivered, not a pulse
// later: with the default one-minute pulse the agent's first tool calls
// were told "waiting: nothing is due" while it handled the heartbeat. The
// end of the run is written at once too.
func TestStateSaysWorkingFromTheDelivery(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig(t)
		cfg.Pulse.Interval = config.Duration(time.Minute)
		cfg.Thresholds.InactivityWarning = config.Duration(5 * time.Minute)
		cfg.Thresholds.InactivityError = config.Duration(10 * time.Minute)
		cfg.Schedule.Every = config.Duration(2 * time.Minute)
		var calls atomic.Int32
		h := startFake(t, cfg, execAgent(20*time.Second, &calls))
		time.Sleep(2*time.Minute + 5*time.Second) // the first wakeup is at 2m, its run lasts 20s
		synctest.Wait()
		if calls.Load() != 1 {
			t.Fatalf("wakeups = %d, want 1", calls.Load())
		}
		st := h.state()
		if w := st.Work; w.Mode != state.WorkWorking || w.Since == nil {
			t.Fatalf("state file 5s into the run = %+v, want working since the wakeup", w)
		}
		if st.PulseAt.After(time.Now().Add(-5 * time.Second)) {
			t.Errorf("pulse_at = %s: the write at delivery must keep the pulse's time (the notices' age)", st.PulseAt)
		}
		time.Sleep(20 * time.Second) // the run has ended, the next pulse is still 35s away
		synctest.Wait()
		if w := h.state().Work; w.Mode != state.WorkWaiting {
			t.Fatalf("state file after the run = %+v, want waiting", w)
		}
		h.stop()
	})
}
