package daemon

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/cost"
	"github.com/ai-heart/ai-heart/internal/delivery"
	"github.com/ai-heart/ai-heart/internal/hook"
	"github.com/ai-heart/ai-heart/internal/telemetry"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// working is an exec agent whose every run succeeds, using u.
func working(runs *atomic.Int64, u *cost.Usage) func(config.Delivery, *workspace.Workspace) (delivery.Deliverer, error) {
	return func(config.Delivery, *workspace.Workspace) (delivery.Deliverer, error) {
		return &fakeDeliverer{method: config.DeliveryExec, deliver: func(ctx context.Context, p string) (delivery.Result, error) {
			runs.Add(1)
			return delivery.Result{Reply: "did some work", Usage: u}, nil
		}}, nil
	}
}

// limitAlerts counts the alerts of check at level whose message holds text.
func limitAlerts(t *testing.T, h *harness, check, level, text string) int {
	n := 0
	for _, a := range alertsOf(t, h.alerts) {
		if a["check"] == check && a["level"] == level && strings.Contains(a["message"].(string), text) {
			n++
		}
	}
	return n
}

// A used-up limit whose reset the client reported holds every wakeup until
// that reset (not the cooldown), says so once, and resumes once after it.
func TestRateLimitHoldsUntilTheReset(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig(t)
		cfg.Schedule.Every = config.Duration(100 * time.Millisecond)
		cfg.CircuitBreaker.Cooldown = config.Duration(time.Second) // shorter than the reset: the reset wins
		var runs atomic.Int64
		h := startFake(t, cfg, working(&runs, nil))
		ws, _ := workspace.New(cfg.Workspace, nil)
		time.Sleep(150 * time.Millisecond)
		synctest.Wait()
		reset := time.Now().Add(3 * time.Second).Truncate(time.Second)
		for range 3 { // the status line says it again and again
			said(t, ws, hook.Event{Kind: hook.RateLimit, Limits: []hook.Limit{{Window: "five_hour", Used: 100, Resets: reset}, {Window: "seven_day", Used: 40, Resets: reset.Add(48 * time.Hour)}}})
		}
		time.Sleep(300 * time.Millisecond)
		synctest.Wait()
		before := runs.Load()
		time.Sleep(time.Until(reset) - 200*time.Millisecond)
		synctest.Wait()
		st := h.state()
		if runs.Load() != before || st.Counters.HeldService < 10 {
			t.Fatalf("runs %d → %d, held %d: want none until the reset", before, runs.Load(), st.Counters.HeldService)
		}
		if sc := st.Chambers.Schedule; sc.HeldUntil == nil || !sc.HeldUntil.Equal(reset) || sc.Blocked == nil || !strings.Contains(sc.Blocked.Reason, "5-hour limit, 100 % used") {
			t.Fatalf("schedule chamber %+v: want held until %v (5-hour limit, 100 %% used)", sc, reset)
		}
		if n := limitAlerts(t, h, "service", "warning", "(5-hour limit, 100 % used)"); n != 1 {
			t.Fatalf("%d hold alerts, want one: %v", n, alertsOf(t, h.alerts))
		}
		time.Sleep(time.Second)
		synctest.Wait()
		if runs.Load() <= before || limitAlerts(t, h, "service", "ok", "rate limit reset") != 1 {
			t.Fatalf("runs %d after the reset; alerts %v: want them resumed, said once", runs.Load(), alertsOf(t, h.alerts))
		}
		time.Sleep(time.Second)
		synctest.Wait()
		if n := limitAlerts(t, h, "service", "ok", "rate limit reset"); n != 1 {
			t.Fatalf("%d resume alerts, want one", n)
		}
	})
}

// A reset beyond its window's length (forged: the agent can pipe a line
// to heart-hook) is not believed: no hold, the wakeups go on.
func TestRateLimitForgedResetIsBounded(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig(t)
		cfg.Schedule.Every = config.Duration(100 * time.Millisecond)
		var runs atomic.Int64
		h := startFake(t, cfg, working(&runs, nil))
		ws, _ := workspace.New(cfg.Workspace, nil)
		time.Sleep(150 * time.Millisecond)
		synctest.Wait()
		said(t, ws, hook.Event{Kind: hook.RateLimit, Limits: []hook.Limit{
			{Window: "five_hour", Used: 100, Resets: time.Now().Add(6 * time.Hour)},
			{Window: "seven_day", Used: 100, Resets: time.Now().Add(30 * 24 * time.Hour)},
			{Window: "x", Used: 100, Resets: time.Date(2099, 1, 1, 0, 0, 0, 0, time.UTC)},
		}})
		time.Sleep(300 * time.Millisecond)
		synctest.Wait()
		before := runs.Load()
		time.Sleep(time.Second)
		synctest.Wait()
		if st := h.state(); runs.Load() < before+5 || st.Chambers.Schedule.HeldUntil != nil {
			t.Fatalf("runs %d → %d, held until %v: a forged reset held the agent", before, runs.Load(), st.Chambers.Schedule.HeldUntil)
		}
	})
}

// With hold_until_reset off, a used-up limit holds nothing by itself.
func TestRateLimitHoldOff(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig(t)
		cfg.Schedule.Every = config.Duration(100 * time.Millisecond)
		cfg.RateLimit = config.RateLimit{}
		var runs atomic.Int64
		startFake(t, cfg, working(&runs, nil))
		ws, _ := workspace.New(cfg.Workspace, nil)
		time.Sleep(150 * time.Millisecond)
		synctest.Wait()
		said(t, ws, hook.Event{Kind: hook.RateLimit, Limits: []hook.Limit{{Window: "five_hour", Used: 100, Resets: time.Now().Add(time.Hour)}}})
		time.Sleep(300 * time.Millisecond)
		synctest.Wait()
		before := runs.Load()
		time.Sleep(time.Second)
		synctest.Wait()
		if runs.Load() < before+5 {
			t.Fatalf("runs %d → %d: held with hold_until_reset off", before, runs.Load())
		}
	})
}

// Past spread_at the schedule's wakeups are spread over the time to the
// reset: at 90 % used with spread_at 0.8 and 10 s to the reset, at most
// one per 5 s.
func TestRateLimitSpreadsTheSchedule(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig(t)
		cfg.Schedule.Every = config.Duration(100 * time.Millisecond)
		var runs atomic.Int64
		startFake(t, cfg, working(&runs, nil))
		ws, _ := workspace.New(cfg.Workspace, nil)
		time.Sleep(150 * time.Millisecond)
		synctest.Wait()
		said(t, ws, hook.Event{Kind: hook.RateLimit, Limits: []hook.Limit{{Window: "five_hour", Used: 90, Resets: time.Now().Add(10 * time.Second)}}})
		time.Sleep(300 * time.Millisecond)
		synctest.Wait()
		before := runs.Load()
		time.Sleep(4 * time.Second)
		synctest.Wait()
		if n := runs.Load() - before; n > 1 {
			t.Fatalf("%d scheduled runs in 4 s at 90 %% used, want at most one", n)
		}
	})
}

// With budget.enforce: turn the spent budget closes the workspace's gate
// (in the workspace's language), which heart-hook reads, until local
// midnight; without enforce: turn no gate is written.
func TestBudgetGateClosesWhenSpent(t *testing.T) {
	for _, enforce := range []string{"", config.EnforceTurn} {
		t.Run("enforce="+enforce, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				cfg := testConfig(t)
				cfg.Schedule.Every = config.Duration(time.Second)
				cfg.Language = "ja"
				cfg.Budget.DailyTokens, cfg.Budget.Enforce = 100, enforce
				var runs atomic.Int64
				startFake(t, cfg, working(&runs, &cost.Usage{Tokens: cost.Tokens{Input: 200}}))
				time.Sleep(1500 * time.Millisecond)
				synctest.Wait()
				p := filepath.Join(cfg.Workspace, filepath.FromSlash(hook.GateFile))
				b, err := os.ReadFile(p)
				if enforce == "" {
					if err == nil {
						t.Fatalf("a gate without enforce: turn: %s", b)
					}
					return
				}
				var g hook.Gate
				if err != nil || json.Unmarshal(b, &g) != nil || !g.Closed(time.Now()) || !strings.Contains(g.Reason, "予算") {
					t.Fatalf("gate %s (%v): want closed, in Japanese", b, err)
				}
				if !g.Closed(time.Now().Add(150*time.Millisecond)) || g.Closed(time.Now().Add(time.Hour)) {
					t.Fatalf("gate %+v: want it to expire two pulses on", g)
				}
				y, m, d := time.Now().Date()
				if midnight := time.Date(y, m, d+1, 0, 0, 0, 0, time.Local); !g.Until.Equal(midnight) || g.Closed(midnight) {
					t.Fatalf("gate until %v, want local midnight %v", g.Until, midnight)
				}
			})
		})
	}
}

// The gate closes in the turn that spends the budget: the client's
// telemetry reports each model request as the turn goes (an interactive
// client exports every few seconds), before the turn's end books it. Only
// what the turn's own session reported counts: a stranger's report cannot
// close the gate, nor a negative one reopen it.
func TestBudgetGateClosesInTheTurnThatSpendsIt(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig(t)
		cfg.Budget.DailyTokens, cfg.Budget.Enforce = 1000, config.EnforceTurn
		h := startFake(t, cfg, (&recorder{method: config.DeliveryTmux}).factory)
		ws, _ := workspace.New(cfg.Workspace, nil)
		p := filepath.Join(cfg.Workspace, filepath.FromSlash(hook.GateFile))
		closed := func() bool {
			time.Sleep(300 * time.Millisecond) // the next pulses
			synctest.Wait()
			b, err := os.ReadFile(p)
			var g hook.Gate
			return err == nil && json.Unmarshal(b, &g) == nil && g.Closed(time.Now())
		}
		said(t, ws, hook.Event{Kind: hook.TurnStart, Session: "s1"})
		if closed() {
			t.Fatal("a gate before anything was used")
		}
		use := func(key, session string, in int64) telemetry.Report {
			return telemetry.Report{Client: "claude-code", Kind: telemetry.KindUsage, Key: key, Session: session, Model: "m", Tokens: cost.Tokens{Input: in}}
		}
		h.d.Telemetry("", []telemetry.Report{use("x/1", "another-project", 900_000), use("y/1", "", 900_000)})
		if closed() {
			t.Fatal("the gate closed on reports of another session and of none")
		}
		h.d.Telemetry("", []telemetry.Report{use("s/1", "s1", 700), use("s/2", "s1", 400)})
		if !closed() {
			t.Fatal("gate open: want closed by the turn's reported 1,100 tokens of a 1,000 budget")
		}
		h.d.Telemetry("", []telemetry.Report{use("s/3", "s1", -1)})
		if !closed() {
			t.Fatal("one negative report reopened the gate")
		}
		if c := h.state().Counters; c.TelemetryRefused != 1 {
			t.Fatalf("counters %+v: want the negative report counted as refused", c)
		}
	})
}

// A folder at the gate's path (the agent's doing: no write replaces it)
// is a writes error that says what stands there and what to do, not a
// guess at a full disk.
func TestGateBehindAFolderSaysSo(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig(t)
		cfg.Schedule.Every = config.Duration(time.Second)
		cfg.Budget.DailyTokens, cfg.Budget.Enforce = 100, config.EnforceTurn
		p := filepath.Join(cfg.Workspace, filepath.FromSlash(hook.GateFile))
		if err := os.MkdirAll(filepath.Join(p, "x"), 0o755); err != nil {
			t.Fatal(err)
		}
		var runs atomic.Int64
		h := startFake(t, cfg, working(&runs, &cost.Usage{Tokens: cost.Tokens{Input: 200}}))
		time.Sleep(1500 * time.Millisecond)
		synctest.Wait()
		want := "stats/budget_gate.json is a folder, not a file: remove it"
		if n := alertsWith(t, h.alerts, "writes", "cannot write its budget gate: "+want); n != 1 {
			t.Fatalf("want one writes alert saying %q: %v", want, alertsOf(t, h.alerts))
		}
		if n := alertsWith(t, h.alerts, "writes", "disk full"); n != 0 {
			t.Fatalf("a folder at the gate's path read as a full disk: %v", alertsOf(t, h.alerts))
		}
		if o := h.d.Statuses()[0].Chambers.Pulse.WritesFailing; o == nil || !strings.Contains(o.Error, want) {
			t.Fatalf("writes failing %+v: want the state to say what stands at the gate's path", o)
		}
	})
}
