package daemon

import (
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/ai-heart/ai-heart/internal/config"
)

// A scheduled wakeup on the pulse's tick carries that
// pulse's verdict, not the previous one's: the schedule's timer and the
// pulse's ticker fire together, and the wakeup waits for the pulse before it
// composes, so the prompt's ID and notices are the ones the state shows.
func TestScheduledWakeupEvaluatesBeforeComposing(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig(t)
		cfg.Pulse.Interval = config.Duration(10 * time.Second)
		cfg.Schedule.Every = config.Duration(10 * time.Second)
		rec := &recorder{method: config.DeliveryTmux}
		h := startFake(t, cfg, rec.factory)
		time.Sleep(9 * time.Second) // the pulse at 0 s
		synctest.Wait()
		before := h.state().HeartbeatID
		time.Sleep(1500 * time.Millisecond) // the pulse and the wakeup at 10 s
		synctest.Wait()
		got := rec.prompts()
		if len(got) != 1 {
			t.Fatalf("%d wakeups, want 1", len(got))
		}
		first, _, _ := strings.Cut(got[0], "\n")
		now := h.state().HeartbeatID
		if first != "Heartbeat: "+string(now) || now == before {
			t.Fatalf("prompt starts %q; the pulse at 0 s minted %s, the one at 10 s %s: want the wakeup to carry the one at 10 s", first, before, now)
		}
	})
}
