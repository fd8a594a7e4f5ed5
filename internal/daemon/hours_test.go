package daemon

import (
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/ai-heart/ai-heart/internal/config"
)

// hoursConfig is testConfig in UTC (the bubble's clock starts at midnight
// UTC) with active hours from 00:02 to 00:05.
func hoursConfig(t *testing.T) *config.Config {
	cfg := testConfig(t)
	c, err := config.Parse([]byte("timezone: UTC\npulse: {interval: 1s}\nthresholds: {inactivity_warning: 2s, inactivity_error: 4s, introspection: 30s}\nschedule: {every: 0s, active_hours: [\"00:02-00:05\"]}\n"))
	if err != nil {
		t.Fatal(err)
	}
	c.Workspace, c.Name = cfg.Workspace, cfg.Name
	return c
}

// TestActiveHoursHoldTheSchedule: outside the range the scheduled wakeups
// are skipped and counted; inside they fire at their times, with no burst of
// the skipped ones when the window opens.
func TestActiveHoursHoldTheSchedule(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := hoursConfig(t)
		cfg.Schedule.Every = config.Duration(30 * time.Second)
		rec := &recorder{method: config.DeliveryExec}
		h := startFake(t, cfg, rec.factory)
		time.Sleep(time.Minute + 59*time.Second)
		synctest.Wait()
		st := h.state()
		if n := len(rec.prompts()); n != 0 || st.Counters.OutsideActiveHours != 3 || !st.Chambers.Schedule.OutsideActiveHours {
			t.Fatalf("before 00:02: %d wakeups, %d held, outside %v; want 0, 3 (0:30, 1:00, 1:30), true", n, st.Counters.OutsideActiveHours, st.Chambers.Schedule.OutsideActiveHours)
		}
		time.Sleep(2 * time.Second) // 00:02:01
		synctest.Wait()
		if n := len(rec.prompts()); n != 1 {
			t.Fatalf("just after the window opens: %d wakeups, want 1 (no burst of the held ones)", n)
		}
		time.Sleep(3 * time.Minute) // to 00:05:01: 2:30 ... 4:30 inside, 5:00 outside
		synctest.Wait()
		st = h.state()
		if n := len(rec.prompts()); n != 6 || st.Counters.OutsideActiveHours != 4 {
			t.Fatalf("after the window: %d wakeups, %d held; want 6 and 4", n, st.Counters.OutsideActiveHours)
		}
	})
}

// TestActiveHoursHoldTheIdleChamber: an idle wakeup due outside the range is
// held (counted once) and sent once when the window opens.
func TestActiveHoursHoldTheIdleChamber(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := hoursConfig(t)
		cfg.Idle = config.Idle{After: config.Duration(20 * time.Second), Prompt: "Nothing for a while."}
		rec := &recorder{method: config.DeliveryExec}
		h := startFake(t, cfg, rec.factory)
		time.Sleep(time.Minute + 59*time.Second)
		synctest.Wait()
		if n, held := len(rec.prompts()), h.state().Counters.OutsideActiveHours; n != 0 || held != 1 {
			t.Fatalf("before 00:02: %d idle wakeups, %d held; want 0 and 1", n, held)
		}
		time.Sleep(2 * time.Second)
		synctest.Wait()
		p := rec.prompts()
		if len(p) != 1 || !strings.Contains(p[0], "Nothing for a while.") {
			t.Fatalf("when the window opens: %q, want one idle wakeup", p)
		}
	})
}
