package daemon

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/delivery"
	"github.com/ai-heart/ai-heart/internal/state"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// A run the watchdog itself ended (the tool cap) leaves its wakeup
// unanswered, and inactivity reaches its error; but with the daily cap
// spent no recovery attempt can reach the agent. Such an attempt is no
// attempt: recovery waits, says why once, and never gives up on an agent it
// could not wake, and what is said of the silence is the cap (until
// midnight), not "gave up ... write a log and wakeups come again".
func TestRecoveryWaitsForTheGate(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig(t) // inactivity error after 4s
		cfg.Schedule.Every = config.Duration(time.Second)
		cfg.DailyCap = 1
		cfg.Recovery = config.Recovery{MaxAttempts: 2, MaxWaitCycles: 3}
		runs := 0
		factory := func(config.Delivery, *workspace.Workspace) (delivery.Deliverer, error) {
			return &fakeDeliverer{method: config.DeliveryExec, deliver: func(ctx context.Context, p string) (delivery.Result, error) {
				runs++
				return delivery.Result{ToolCalls: 4}, fmt.Errorf("ended: %w", delivery.ErrToolCap)
			}}, nil
		}
		h := startFake(t, cfg, factory)
		time.Sleep(20 * time.Second) // the error at ~5 s, then many pulses' worth of attempts
		synctest.Wait()
		st := h.state()
		if runs != 1 {
			t.Fatalf("%d runs with a daily cap of 1", runs)
		}
		if h.hasAlert("gave_up", "error") {
			t.Fatalf("recovery gave up on an agent the cap kept it from reaching: %v", alertsOf(t, h.alerts))
		}
		waits := 0
		for _, a := range alertsOf(t, h.alerts) {
			if msg, _ := a["message"].(string); a["check"] == "recovery" && strings.Contains(msg, "recovery waits") && strings.Contains(msg, "daily cap") {
				waits++
			}
		}
		if waits != 1 {
			t.Fatalf("%d alerts that recovery waits for the cap, want one: %v", waits, alertsOf(t, h.alerts))
		}
		if r := st.Recovery; !r.Active || r.Attempt != 0 || r.Held != state.BlockedCap {
			t.Fatalf("recovery %+v: want open, no attempt counted, held by the daily cap", r)
		}
		if b := state.Blocking(st, time.Now(), nil); b == nil || b.Why != state.BlockedCap {
			t.Fatalf("blocked %+v, want the daily cap", b)
		}
		// A give-up that stands when the cap is reached is still not what
		// keeps the agent asleep: the cap is, until midnight.
		st.Recovery.GaveUp = true
		if b := state.Blocking(st, time.Now(), nil); b == nil || b.Why != state.BlockedCap {
			t.Fatalf("blocked %+v under a give-up and the cap, want the cap first", b)
		}
	})
}
