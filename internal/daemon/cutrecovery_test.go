package daemon

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/delivery"
	"github.com/ai-heart/ai-heart/internal/lang"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// capThenRecovery runs an exec agent whose first run the tool cap ends,
// with the next scheduled wakeup far off, so recovery comes first; it
// returns the recovery prompt (the first wakeup that carries the RECOVERY
// block).
func capThenRecovery(t *testing.T, l lang.Lang) string {
	t.Helper()
	var got string
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig(t) // inactivity error after 4s
		cfg.Language = l
		cfg.Schedule.Every = config.Duration(time.Minute)
		cfg.Agent = config.Delivery{Delivery: config.DeliveryExec, Command: []string{"agent", "{prompt}"}, Timeout: config.Duration(30 * time.Second),
			StopGrace: config.Duration(time.Second), Output: config.OutputStreamJSON, MaxToolCalls: 3}
		cfg.Recovery = config.Recovery{MaxAttempts: 2, MaxWaitCycles: 20}
		var mu sync.Mutex
		var prompts []string
		factory := func(config.Delivery, *workspace.Workspace) (delivery.Deliverer, error) {
			return &fakeDeliverer{method: config.DeliveryExec, deliver: func(ctx context.Context, p string) (delivery.Result, error) {
				mu.Lock()
				prompts = append(prompts, p)
				n := len(prompts)
				mu.Unlock()
				if n == 1 { // the first run goes past the tool cap
					return delivery.Result{ExitCode: -1, ToolCalls: 4}, fmt.Errorf("run agent: %w: tool call 4 of a cap of 3; the run was ended", delivery.ErrToolCap)
				}
				<-ctx.Done()
				return delivery.Result{ExitCode: -1}, context.Cause(ctx)
			}}, nil
		}
		startFake(t, cfg, factory)
		time.Sleep(time.Minute + 10*time.Second)
		synctest.Wait()
		mu.Lock()
		defer mu.Unlock()
		for _, p := range prompts {
			if strings.Contains(p, "RECOVERY (attempt") || strings.Contains(p, "回復通知（") {
				got = p
				return
			}
		}
		t.Fatalf("no recovery prompt in %d wakeups: %q", len(prompts), prompts)
	})
	return got
}

// A run the tool cap ended is not a stall, even when recovery comes before
// the next wakeup: the recovery prompt (read by a fresh run that remembers
// nothing) says the cap ended the last run and never tells it it is stuck
// or to stop what it was doing.
func TestACapCutIsNeverCalledAStall(t *testing.T) {
	for _, tc := range []struct {
		l     lang.Lang
		cap   string
		stall []string
	}{
		{lang.English, "ended by the tool cap (agent.max_tool_calls: 3)", []string{"Stop what you were doing", "stop what you were doing", "treats you as stuck"}},
		{lang.Japanese, "ツール呼び出しの上限（agent.max_tool_calls: 3）", []string{"していたことをやめ", "行き詰まっている"}},
	} {
		p := capThenRecovery(t, tc.l)
		if !strings.Contains(p, tc.cap) {
			t.Errorf("%s: the recovery prompt does not name the cap (%q):\n%s", tc.l, tc.cap, p)
		}
		for _, s := range tc.stall {
			if strings.Contains(p, s) {
				t.Errorf("%s: the recovery prompt after a cap cut says %q:\n%s", tc.l, s, p)
			}
		}
	}
}

// Recovery's steps are said once: where the RECOVERY block stands, the
// inactivity error beside it points to it instead of repeating them.
func TestRecoveryStepsAreSaidOnce(t *testing.T) {
	for _, tc := range []struct {
		l    lang.Lang
		step string
	}{{lang.English, "GEMINI.md and ai-docs/"}, {lang.Japanese, "GEMINI.md と ai-docs/"}} {
		p := capThenRecovery(t, tc.l)
		if n := strings.Count(p, tc.step); n != 1 {
			t.Errorf("%s: the recovery prompt says %q %d times:\n%s", tc.l, tc.step, n, p)
		}
	}
}
