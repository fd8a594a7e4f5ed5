package daemon

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/rs/zerolog"

	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/delivery"
	"github.com/ai-heart/ai-heart/internal/state"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// TestProbeOutSpendsNoCap: while the half-open breaker's one probe is out,
// a wakeup is skipped, and a skipped wakeup takes nothing from the daily
// cap (it used to take one before the breaker was asked).
func TestProbeOutSpendsNoCap(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig(t)
		cfg.DailyCap = 10
		cfg.CircuitBreaker = config.CircuitBreaker{Failures: 1, Cooldown: config.Duration(time.Minute), MaxCooldown: config.Duration(time.Hour)}
		nd := func(config.Delivery, *workspace.Workspace) (delivery.Deliverer, error) {
			return &fakeDeliverer{method: config.DeliveryExec, deliver: func(ctx context.Context, p string) (delivery.Result, error) {
				return delivery.Result{ExitCode: 1}, errors.New("exit code 1")
			}}, nil
		}
		a, err := newAgent(cfg.AgentConfigs()[0], cfg.Timezone, cfg.Location(), Options{Log: zerolog.Nop(), NewDeliverer: nd}, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		defer a.gate.shutdown()
		a.wake(srcSchedule, "heartbeat") // fails: the breaker opens
		synctest.Wait()
		time.Sleep(2 * time.Minute) // the cooldown ends: half-open
		if ok, probe := a.gate.breaker.Allow(time.Now()); !ok || !probe {
			t.Fatalf("allow = %v, probe %v: want the probe", ok, probe)
		}
		used := a.gate.cap.State(time.Now()).Used
		a.wake(srcSchedule, "heartbeat")
		synctest.Wait()
		a.mu.Lock()
		skipped := a.counters.BySource[srcSchedule][state.OutcomeSkipped]
		a.mu.Unlock()
		if skipped != 1 {
			t.Fatalf("skipped = %d, want the wakeup skipped while the probe is out", skipped)
		}
		if now := a.gate.cap.State(time.Now()).Used; now != used {
			t.Fatalf("daily cap used %d, was %d: a skipped wakeup took from it", now, used)
		}
	})
}
