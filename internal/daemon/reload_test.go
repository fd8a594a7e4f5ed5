package daemon

import (
	"context"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/cost"
	"github.com/ai-heart/ai-heart/internal/day"
	"github.com/ai-heart/ai-heart/internal/state"
)

// TestReloadBooksNoPhantomRun: a reload at the moment of a wakeup. The run
// in flight finishes and is booked as what it was (a run the counts,
// the ledger and the cap all see once); the reload writes no "stopped"
// marks on the day strip, and the day's cap count goes on from where it
// was. Seen before: the reload ended the run, the ledger booked a failed
// run no count or log line knew of, the day file got two "stopped" marks,
// and the cap read 1 after 4 runs.
func TestReloadBooksNoPhantomRun(t *testing.T) {
	agent := buildFakeAgent(t)
	cfg := testConfig(t)
	cfg.Schedule.Every = config.Duration(100 * time.Millisecond)
	cfg.Agent = streamAgent(agent, "claude", "30", "did things", "model=m1") // a run of 30 tool calls: 0.3 s or more
	h := start(t, cfg, nil)
	h.waitFor("a run delivered and the next in flight", 20*time.Second, func() bool {
		s, err := h.tryState()
		_, _, flying := h.d.agents[0].gate.inFlight()
		return err == nil && s.Counters.Delivered >= 1 && flying
	})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := h.d.Reload(ctx, cfg); err != nil {
		t.Fatalf("reload: %v", err)
	}
	h.waitFor("two runs after the reload", 20*time.Second, func() bool {
		s, err := h.tryState()
		return err == nil && s.Counters.Delivered >= 4
	})
	h.stop()
	st := h.state()
	c := st.Counters
	today := st.Cost.Today.By.Sum("")
	fated := c.Delivered + c.DeliveryFailures + c.TakenOver + c.ToolCapped + c.TokenCapped
	// The stop at the end may end a run, booked and counted failed; the
	// reload ends none.
	if f := st.Cost.Today.By.Sum(cost.Failed); f.Runs > 1 || f.Runs != c.DeliveryFailures {
		t.Errorf("failed runs: ledger %d, counts %d; want the same, at most the one the stop ended", f.Runs, c.DeliveryFailures)
	}
	if today.Runs != fated {
		t.Errorf("the ledger booked %d runs, the counts know of %d (%+v)", today.Runs, fated, c)
	}
	if int64(st.DailyCap.Used) != today.Runs {
		t.Errorf("daily cap used %d after %d runs", st.DailyCap.Used, today.Runs)
	}
	marks, err := day.Read(h.cfg.AgentConfigs()[0].StateDir(), time.Now().Format(time.DateOnly))
	if err != nil {
		t.Fatal(err)
	}
	stopped := 0
	for _, m := range marks {
		if m.Kind == day.KindMode && m.Mode == day.Stopped {
			stopped++
		}
	}
	if stopped != 1 {
		t.Errorf("%d stopped marks on the day strip, want 1 (the stop; a reload stops nothing): %+v", stopped, marks)
	}
}

// TestReloadKeepsTheWorkingStretch: every run fails (it times out), so the
// agent stays working from the first wakeup on. A reload in the middle must
// not forget that wakeup: the stretch goes on from the same moment, or a
// stall that had raised its warning would start over as "waiting", and the
// first pulse after the reload comes at its own rhythm, not at once.
func TestReloadKeepsTheWorkingStretch(t *testing.T) {
	agent := buildFakeAgent(t)
	cfg := testConfig(t)
	cfg.Schedule.Every = config.Duration(300 * time.Millisecond)
	cfg.Pulse.Interval = config.Duration(400 * time.Millisecond)
	cfg.Agent = config.Delivery{Delivery: config.DeliveryExec, Command: []string{agent, "sleep"}, Timeout: config.Duration(500 * time.Millisecond), StopGrace: config.Duration(100 * time.Millisecond)}
	h := start(t, cfg, nil)
	var since time.Time
	h.waitFor("a failed run, the agent working", 20*time.Second, func() bool {
		s, err := h.tryState()
		if err != nil || s.Work.Mode != "working" || s.Work.Since == nil || s.Counters.DeliveryFailures < 1 {
			return false
		}
		since = *s.Work.Since
		return true
	})
	before := h.state().PulseAt
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := h.d.Reload(ctx, cfg); err != nil {
		t.Fatalf("reload: %v", err)
	}
	reloaded := time.Now()
	var after state.State
	h.waitFor("a pulse after the reload", 10*time.Second, func() bool {
		s, err := h.tryState()
		after = s
		return err == nil && s.PulseAt.After(reloaded)
	})
	h.stop()
	if after.Work.Mode != "working" || after.Work.Since == nil || !after.Work.Since.Equal(since) {
		t.Fatalf("after the reload work = %+v, want still working since %s", after.Work, since.Format(time.RFC3339Nano))
	}
	if gap := after.PulseAt.Sub(before); gap < cfg.Pulse.Interval.D()/2 {
		t.Errorf("the first pulse after the reload came %s after the last one, want about one interval (%s)", gap, cfg.Pulse.Interval.D())
	}
}
