package daemon

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/day"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// The daemon marks the day as it goes: the agent's modes (working after
// a tmux wakeup, until answered), every wakeup's fate and every alert.
func TestDayMarks(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig(t)
		cfg.Schedule.Every = config.Duration(time.Second)
		rec := &recorder{method: config.DeliveryTmux}
		h := startFake(t, cfg, rec.factory)
		ws, _ := workspace.New(cfg.Workspace, nil)
		time.Sleep(5 * time.Second) // a wakeup, coalesced ones, an inactivity warning (2s)
		synctest.Wait()
		h.stop()
		marks, err := day.Read(ws, time.Now().In(cfg.Location()).Format(time.DateOnly))
		if err != nil {
			t.Fatal(err)
		}
		var modes []string
		kinds := map[string]int{}
		for _, m := range marks {
			kinds[m.Kind+":"+m.Outcome+m.Check]++
			if m.Kind == day.KindMode {
				modes = append(modes, m.Mode)
			}
		}
		if len(modes) < 2 || modes[0] != day.Waiting || modes[1] != day.Working {
			t.Errorf("modes %v: want waiting, then working from the wakeup", modes)
		}
		if kinds["wakeup:delivered"] != 1 || kinds["wakeup:coalesced"] < 2 || kinds["alert:inactivity"] < 1 {
			t.Errorf("marks %v: want the delivered wakeup, the coalesced ones, the inactivity alert", kinds)
		}
	})
}
