package daemon

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/hook"
	"github.com/ai-heart/ai-heart/internal/pause"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// windowsKept is how many rate-limit windows the agent's gate keeps.
func windowsKept(h *harness) int {
	g := h.d.agents[0].gate
	g.mu.Lock()
	defer g.mu.Unlock()
	return len(g.limits)
}

// Only the windows Claude Code's status line sends are believed
// (five_hour, seven_day, each with its own span): a used-up window of any
// other name holds nothing, and a flood of unique names keeps nothing.
func TestRateLimitOnlyTheClientsWindows(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig(t)
		cfg.Schedule.Every = config.Duration(100 * time.Millisecond)
		var runs atomic.Int64
		h := startFake(t, cfg, working(&runs, nil))
		ws, _ := workspace.New(cfg.Workspace, nil)
		time.Sleep(150 * time.Millisecond)
		synctest.Wait()
		said(t, ws, hook.Event{Kind: hook.RateLimit, Limits: []hook.Limit{{Window: "x", Used: 100, Resets: time.Now().Add(time.Hour)}}})
		for i := range 300 {
			said(t, ws, hook.Event{Kind: hook.RateLimit, Limits: []hook.Limit{{Window: fmt.Sprint("w", i), Used: 50, Resets: time.Now().Add(time.Hour)}}})
		}
		time.Sleep(300 * time.Millisecond)
		synctest.Wait()
		if n := windowsKept(h); n > 2 {
			t.Errorf("%d windows kept after 300 unique names, want the client's two at most", n)
		}
		before := runs.Load()
		time.Sleep(time.Second)
		synctest.Wait()
		if st := h.state(); runs.Load() < before+5 || st.Chambers.Schedule.HeldUntil != nil {
			t.Fatalf("runs %d → %d, held until %v: a window the client never sends held the agent", before, runs.Load(), st.Chambers.Schedule.HeldUntil)
		}
	})
}

// A hold that ends on another day says the date, not only the time: a
// seven-day window's reset is days away.
func TestRateLimitHoldAlertIsDated(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig(t)
		cfg.Schedule.Every = config.Duration(100 * time.Millisecond)
		var runs atomic.Int64
		h := startFake(t, cfg, working(&runs, nil))
		ws, _ := workspace.New(cfg.Workspace, nil)
		time.Sleep(150 * time.Millisecond)
		synctest.Wait()
		reset := time.Now().Add(3*24*time.Hour + 90*time.Minute).Truncate(time.Second)
		said(t, ws, hook.Event{Kind: hook.RateLimit, Limits: []hook.Limit{{Window: "seven_day", Used: 100, Resets: reset}}})
		time.Sleep(300 * time.Millisecond)
		synctest.Wait()
		want := "until " + reset.In(cfg.Location()).Format("2006-01-02 15:04")
		if n := limitAlerts(t, h, "service", "warning", want); n != 1 {
			t.Fatalf("%d hold alerts saying %q: %v", n, want, alertsOf(t, h.alerts))
		}
	})
}

// `watchdog resume` ends a rate limit's hold, and the report that armed it
// (the same window, until its reset) arms nothing again: said again, nor
// re-read from the spool's tail by a restart or a reload.
func TestRateLimitResumeEndsTheHoldForGood(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig(t)
		cfg.Schedule.Every = config.Duration(100 * time.Millisecond)
		var runs atomic.Int64
		h := startFake(t, cfg, working(&runs, nil))
		ws, _ := workspace.New(cfg.Workspace, nil)
		time.Sleep(150 * time.Millisecond)
		synctest.Wait()
		reset := time.Now().Add(4 * time.Hour).Truncate(time.Second)
		line := hook.Event{Kind: hook.RateLimit, Limits: []hook.Limit{{Window: "five_hour", Used: 100, Resets: reset}}}
		said(t, ws, line)
		time.Sleep(300 * time.Millisecond)
		synctest.Wait()
		if st := h.state(); st.Chambers.Schedule.HeldUntil == nil {
			t.Fatalf("no hold: %+v", st.Chambers.Schedule)
		}
		if err := pause.Resume(cfg.AgentConfigs()[0].PauseFile(), time.Now()); err != nil {
			t.Fatal(err)
		}
		time.Sleep(300 * time.Millisecond)
		synctest.Wait()
		flowing := func(when string, h *harness) {
			t.Helper()
			before := runs.Load()
			time.Sleep(time.Second)
			synctest.Wait()
			if st := h.state(); runs.Load() < before+5 || st.Chambers.Schedule.HeldUntil != nil {
				t.Fatalf("%s: runs %d → %d, held until %v; want the wakeups flowing", when, before, runs.Load(), st.Chambers.Schedule.HeldUntil)
			}
		}
		flowing("after resume", h)
		if n := limitAlerts(t, h, "service", "ok", "watchdog resume"); n != 1 {
			t.Fatalf("%d alerts saying resume ended the hold: %v", n, alertsOf(t, h.alerts))
		}
		said(t, ws, line)
		line.Limits[0].Resets = reset.Add(time.Minute) // the same window before its reset: a forgery
		said(t, ws, line)
		time.Sleep(200 * time.Millisecond)
		synctest.Wait()
		flowing("the same report said again", h)
		h.stop()
		h = startFake(t, cfg, working(&runs, nil))
		time.Sleep(300 * time.Millisecond)
		synctest.Wait()
		flowing("after a restart (the spool's tail read again)", h)
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := h.d.Reload(ctx, cfg); err != nil {
			t.Fatal(err)
		}
		time.Sleep(300 * time.Millisecond)
		synctest.Wait()
		flowing("after a reload", h)
		if n := limitAlerts(t, h, "service", "warning", "rate limit"); n != 0 {
			t.Fatalf("%d hold alerts after the restart: %v", n, alertsOf(t, h.alerts))
		}
	})
}

// Spreading the schedule is never silent and never thins the wakeups to
// one per days: at 99 % of a seven-day window it is one alert (until when
// and why), the state says it, the gap is at most rate_limit.spread_max,
// and `watchdog resume` ends it.
func TestRateLimitSpreadIsAlertedBoundedAndResumable(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig(t)
		cfg.Schedule.Every = config.Duration(100 * time.Millisecond)
		cfg.RateLimit.SpreadMax = config.Duration(time.Second)
		var runs atomic.Int64
		h := startFake(t, cfg, working(&runs, nil))
		ws, _ := workspace.New(cfg.Workspace, nil)
		time.Sleep(150 * time.Millisecond)
		synctest.Wait()
		reset := time.Now().Add(7*24*time.Hour - 2*time.Minute).Truncate(time.Second)
		for range 3 { // the status line says it again and again
			said(t, ws, hook.Event{Kind: hook.RateLimit, Limits: []hook.Limit{{Window: "seven_day", Used: 99, Resets: reset}}})
		}
		time.Sleep(300 * time.Millisecond)
		synctest.Wait()
		before := runs.Load()
		time.Sleep(4 * time.Second)
		synctest.Wait()
		if n := runs.Load() - before; n < 3 || n > 5 {
			t.Fatalf("%d scheduled runs in 4 s at 99 %% of a 7-day window with spread_max 1s, want 3 to 5", n)
		}
		want := "until " + reset.In(cfg.Location()).Format("2006-01-02 15:04")
		if n := limitAlerts(t, h, "service", "warning", "spread"); n != 1 || limitAlerts(t, h, "service", "warning", want) != 1 || limitAlerts(t, h, "service", "warning", "7-day limit, 99 % used") != 1 {
			t.Fatalf("want one spread alert saying %q and why: %v", want, alertsOf(t, h.alerts))
		}
		sp := h.state().Chambers.Schedule.Spread
		if sp == nil || !sp.Until.Equal(reset) || !strings.Contains(sp.Why, "7-day limit, 99 % used") || sp.MaxGap.D() != time.Second {
			t.Fatalf("state's spread = %+v, want until %v, why and the cap", sp, reset)
		}
		if err := pause.Resume(cfg.AgentConfigs()[0].PauseFile(), time.Now()); err != nil {
			t.Fatal(err)
		}
		time.Sleep(300 * time.Millisecond)
		synctest.Wait()
		before = runs.Load()
		time.Sleep(time.Second)
		synctest.Wait()
		if st := h.state(); runs.Load() < before+5 || st.Chambers.Schedule.Spread != nil {
			t.Fatalf("after resume: runs %d → %d, spread %+v; want the schedule whole again", before, runs.Load(), st.Chambers.Schedule.Spread)
		}
		if n := limitAlerts(t, h, "service", "ok", "spread"); n != 1 {
			t.Fatalf("%d alerts saying the spread ended: %v", n, alertsOf(t, h.alerts))
		}
	})
}
