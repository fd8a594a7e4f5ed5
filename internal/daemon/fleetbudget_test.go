package daemon

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/cost"
	"github.com/ai-heart/ai-heart/internal/delivery"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// fleet_budget caps two agents together: 100 tokens a run, 500 a day for
// the fleet, so five runs (six at most: a run in flight when it is crossed
// finishes) and then no agent is woken; one alert says it is spent.
func TestFleetBudget(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		root := t.TempDir()
		yaml := "pulse: {interval: 100ms}\nschedule: {every: 100ms}\nfleet_budget: {daily_tokens: 500}\nagents:\n"
		for _, n := range []string{"a", "b"} {
			dir := filepath.Join(root, n)
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			yaml += fmt.Sprintf("  - {name: %s, workspace: %s, agent: {delivery: exec, command: [x]}}\n", n, dir)
		}
		cfg, err := config.Parse([]byte(yaml))
		if err != nil {
			t.Fatal(err)
		}
		var runs atomic.Int64
		nd := func(config.Delivery, *workspace.Workspace) (delivery.Deliverer, error) {
			return &fakeDeliverer{method: config.DeliveryExec, deliver: func(ctx context.Context, p string) (delivery.Result, error) {
				runs.Add(1)
				return delivery.Result{Reply: "worked", Usage: &cost.Usage{Tokens: cost.Tokens{Input: 80, Output: 20}}}, nil
			}}, nil
		}
		h := startFake(t, cfg, nd)
		time.Sleep(3 * time.Second)
		synctest.Wait()
		h.stop()
		if n := runs.Load(); n < 5 || n > 6 {
			t.Fatalf("%d runs under a fleet budget of 5 runs' tokens", n)
		}
		var spent, dropped int
		for _, a := range alertsOf(t, h.alerts) {
			if a["check"] == "fleet_budget" {
				spent++
			}
		}
		for _, n := range []string{"a", "b"} {
			st, err := stateOf(cfg, filepath.Join(root, n))
			if err != nil {
				t.Fatal(err)
			}
			dropped += int(st.Counters.DroppedBudget)
		}
		if spent != 2 || dropped < 20 { // warn_at 0.8, then spent
			t.Fatalf("fleet_budget alerts %d (want the warning and the spent one), dropped %d: %v", spent, dropped, alertsOf(t, h.alerts))
		}
	})
}
