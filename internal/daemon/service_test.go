package daemon

import (
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/ai-heart/ai-heart/internal/clock"
	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/delivery"
	"github.com/ai-heart/ai-heart/internal/hook"
	"github.com/ai-heart/ai-heart/internal/lang"
	"github.com/ai-heart/ai-heart/internal/wakeup"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// refusing is an exec agent whose model's service fails the first n runs
// with kind, then answers.
func refusing(kind string, n int64, runs *atomic.Int64) func(config.Delivery, *workspace.Workspace) (delivery.Deliverer, error) {
	return func(config.Delivery, *workspace.Workspace) (delivery.Deliverer, error) {
		return &fakeDeliverer{method: config.DeliveryExec, deliver: func(ctx context.Context, p string) (delivery.Result, error) {
			if runs.Add(1) <= n {
				return delivery.Result{ExitCode: 1, ServiceError: kind}, errors.New("exit status 1")
			}
			return delivery.Result{Reply: "did some work"}, nil
		}}, nil
	}
}

// A rate limit holds wakeups for the breaker's cooldown, without spending
// its failures and without a retry meanwhile; then the runs go on.
func TestRateLimitHoldsWakeups(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig(t)
		cfg.Schedule.Every = config.Duration(100 * time.Millisecond)
		cfg.CircuitBreaker = config.CircuitBreaker{Failures: 2, Cooldown: config.Duration(2 * time.Second), MaxCooldown: config.Duration(4 * time.Second)}
		var runs atomic.Int64
		h := startFake(t, cfg, refusing("rate_limit", 1, &runs))
		time.Sleep(1500 * time.Millisecond)
		synctest.Wait()
		st := h.state()
		if runs.Load() != 1 || st.Counters.HeldService < 10 || st.Breaker.Failures != 0 || st.Breaker.State != "closed" {
			t.Fatalf("runs %d, held %d, breaker %+v: want one run, the rest held, the breaker untouched", runs.Load(), st.Counters.HeldService, st.Breaker)
		}
		if !h.hasAlert("service", "warning") {
			t.Fatalf("no service warning: %v", alertsOf(t, h.alerts))
		}
		time.Sleep(time.Second) // the hold is over
		synctest.Wait()
		if runs.Load() < 2 || !h.hasAlert("service", "ok") {
			t.Fatalf("runs %d after the hold; alerts %v", runs.Load(), alertsOf(t, h.alerts))
		}
	})
}

// Under tmux the failure comes from the StopFailure hook: the turn is
// over, and the wakeups are held.
func TestStopFailureHookHoldsWakeups(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig(t)
		cfg.Schedule.Every = config.Duration(100 * time.Millisecond)
		cfg.CircuitBreaker.Cooldown = config.Duration(2 * time.Second)
		rec := &recorder{method: config.DeliveryTmux}
		h := startFake(t, cfg, rec.factory)
		ws, _ := workspace.New(cfg.Workspace, nil)
		time.Sleep(150 * time.Millisecond)
		synctest.Wait()
		said(t, ws, hook.Event{Kind: hook.TurnStart})
		said(t, ws, hook.Event{Kind: hook.Failure, Name: "StopFailure", Detail: "overloaded"})
		time.Sleep(1500 * time.Millisecond)
		synctest.Wait()
		if n := len(rec.prompts()); n != 1 || !h.hasAlert("service", "warning") || h.state().Counters.HeldService == 0 {
			t.Fatalf("%d wakeups during the hold; alerts %v", n, alertsOf(t, h.alerts))
		}
		time.Sleep(time.Second)
		synctest.Wait()
		if n := len(rec.prompts()); n != 2 {
			t.Fatalf("%d wakeups after the hold, want the next one", n)
		}
	})
}

// The first wakeup after a hold tells the agent why it was quiet: the
// model's own limit, not report_tool_usage's; the next does not repeat it.
func TestTheWakeupAfterAHoldSaysWhy(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig(t)
		cfg.Schedule.Every = config.Duration(100 * time.Millisecond)
		cfg.CircuitBreaker = config.CircuitBreaker{Failures: 2, Cooldown: config.Duration(time.Second), MaxCooldown: config.Duration(2 * time.Second)}
		var prompts []string
		var mu sync.Mutex
		h := startFake(t, cfg, func(config.Delivery, *workspace.Workspace) (delivery.Deliverer, error) {
			return &fakeDeliverer{method: config.DeliveryExec, deliver: func(ctx context.Context, p string) (delivery.Result, error) {
				mu.Lock()
				defer mu.Unlock()
				prompts = append(prompts, p)
				if len(prompts) == 1 {
					return delivery.Result{ExitCode: 1, ServiceError: "rate_limit"}, errors.New("exit status 1")
				}
				return delivery.Result{Reply: "did some work"}, nil
			}}, nil
		})
		time.Sleep(2 * time.Second) // the hold, then runs again
		synctest.Wait()
		h.stop()
		mu.Lock()
		defer mu.Unlock()
		if len(prompts) < 3 {
			t.Fatalf("%d runs, want the failed one and two after the hold", len(prompts))
		}
		const why = "[info] service: The model's service answered rate_limit"
		if !strings.Contains(prompts[1], why) || !strings.Contains(prompts[1], "not one of report_tool_usage's") {
			t.Errorf("the first wakeup after the hold = %q, want it to say the model's limit held it", prompts[1])
		}
		if strings.Contains(prompts[2], why) {
			t.Errorf("the second wakeup after the hold says it again: %q", prompts[2])
		}
	})
}

// The service's notice ("held your wakeups until T and then tried once
// more") is told once the hold is over: read in the status during it, it
// spoke of the future in the past tense beside "no wakeup comes until T".
// In an idle prompt it is a reason to ask for the notices, not for [IDLE].
func TestServiceNoticeOnlyOnceTheHoldIsOver(t *testing.T) {
	cfg := testConfig(t).AgentConfigs()[0]
	now := time.Now()
	for _, tc := range []struct {
		until time.Time
		want  bool
	}{{now.Add(time.Minute), false}, {now.Add(-time.Second), true}} {
		q := &wakeup.Quiet{Kind: "rate_limit", At: now.Add(-time.Minute), Until: tc.until}
		a := &agent{agentWiring: agentWiring{cfg: cfg, clock: clock.Real{}, loc: time.UTC, gate: newGate(nil, nil, nil, wakeup.State{Quiet: q})}}
		got := false
		for _, n := range a.notices() {
			got = got || strings.HasPrefix(n, "[info] service: ")
		}
		if got != tc.want {
			t.Errorf("hold until %s (now %s): service notice %v, want %v: %q", tc.until.Format("15:04:05"), now.Format("15:04:05"), got, tc.want, a.notices())
		}
	}
	idle := config.IdlePrompt(config.DeliveryExec, lang.English)
	if got := idleText(idle, []string{"[info] service: The model's service answered rate_limit. If work was cut off, pick it up now."}, lang.English, false); strings.Contains(got, "[IDLE]") {
		t.Errorf("[IDLE] beside 'pick it up now': %q", got)
	}
}
