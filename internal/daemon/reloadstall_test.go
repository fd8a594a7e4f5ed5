package daemon

import (
	"context"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/delivery"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// A reload asked while the run in flight is stuck waits for that run, and
// recovery's takeover still ends it at the inactivity error: the reload
// applies and the recovery attempt follows within a pulse or two. Before,
// the draining gate dropped the takeover: recovery and the reload both
// waited for the run's own timeout (up to agent.timeout, 10 minutes).
func TestReloadDuringAStallLetsRecoveryTakeOver(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig(t) // inactivity error at 4s
		cfg.Schedule.Every = config.Duration(time.Second)
		cfg.Recovery = config.Recovery{MaxAttempts: 3, MaxWaitCycles: 1}
		var mu sync.Mutex
		var prompts []string
		factory := func(config.Delivery, *workspace.Workspace) (delivery.Deliverer, error) {
			return &fakeDeliverer{method: config.DeliveryExec, deliver: func(ctx context.Context, p string) (delivery.Result, error) {
				mu.Lock()
				prompts = append(prompts, p)
				n := len(prompts)
				mu.Unlock()
				if n == 1 { // stuck: no proof, no end, until something ends it
					<-ctx.Done()
					return delivery.Result{ExitCode: -1}, context.Cause(ctx)
				}
				return delivery.Result{Reply: "back at work"}, nil
			}}, nil
		}
		h := startFake(t, cfg, factory)
		time.Sleep(1500 * time.Millisecond) // the scheduled wakeup's run is stuck
		synctest.Wait()
		reloaded := make(chan error, 1)
		asked := time.Now()
		go func() { reloaded <- h.d.Reload(context.Background(), cfg) }()
		select {
		case err := <-reloaded:
			if err != nil {
				t.Fatalf("reload: %v", err)
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("the reload still waits %s after it was asked: the stuck run holds it and recovery off", time.Since(asked))
		}
		if took := time.Since(asked); took > 5*time.Second {
			t.Errorf("the reload applied %s after it was asked; want by the inactivity error (4s) and a pulse", took)
		}
		time.Sleep(2 * time.Second)
		synctest.Wait()
		mu.Lock()
		got := strings.Join(prompts, "\n---\n")
		mu.Unlock()
		if !strings.Contains(got, "RECOVERY (attempt 1 of 3)") {
			t.Errorf("no recovery attempt after the reload; prompts:\n%s", got)
		}
		h.stop()
	})
}
