package daemon

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/delivery"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// A recovery attempt that the gate refuses after all is no attempt. The
// half-open breaker's probe hangs; recovery takes over from it, the probe's
// end opens the breaker again, and the recovery wakeup is skipped at the
// gate. Counted as an attempt, it made recovery give up (max_attempts 1)
// without ever reaching the agent; taken back, recovery waits for the
// breaker and its attempt, once the breaker lets a probe go, reaches the
// agent and brings it back.
func TestARefusedRecoveryAttemptIsNoAttempt(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig(t) // inactivity error after 4s
		cfg.Schedule.Every = config.Duration(time.Second)
		cfg.CircuitBreaker = config.CircuitBreaker{Failures: 1, Cooldown: config.Duration(2500 * time.Millisecond), MaxCooldown: config.Duration(2500 * time.Millisecond)}
		cfg.Recovery = config.Recovery{MaxAttempts: 1, MaxWaitCycles: 1}
		var mu sync.Mutex
		var prompts []string
		factory := func(config.Delivery, *workspace.Workspace) (delivery.Deliverer, error) {
			return &fakeDeliverer{method: config.DeliveryExec, deliver: func(ctx context.Context, p string) (delivery.Result, error) {
				mu.Lock()
				prompts = append(prompts, p)
				n := len(prompts)
				mu.Unlock()
				switch n {
				case 1: // fails: the breaker opens
					return delivery.Result{ExitCode: 1}, errors.New("exit status 1")
				case 2: // the probe hangs until recovery ends it
					<-ctx.Done()
					return delivery.Result{ExitCode: -1}, context.Cause(ctx)
				}
				return delivery.Result{Reply: "back at work"}, nil
			}}, nil
		}
		h := startFake(t, cfg, factory)
		time.Sleep(14 * time.Second)
		synctest.Wait()
		mu.Lock()
		reached := false
		for _, p := range prompts {
			reached = reached || strings.Contains(p, "RECOVERY (attempt 1 of 1)")
		}
		n := len(prompts)
		mu.Unlock()
		if h.hasAlert("gave_up", "error") {
			t.Fatalf("recovery gave up (%d runs, a recovery prompt delivered: %v): %v", n, reached, alertsOf(t, h.alerts))
		}
		if !reached {
			t.Fatalf("no recovery prompt reached the agent in %d runs: %v", n, alertsOf(t, h.alerts))
		}
		if !h.hasAlert("circuit_breaker", "warning") {
			t.Fatal("the breaker never opened: the sequence tested nothing")
		}
	})
}
