package daemon

import (
	"os"
	"path/filepath"
	"testing"
	"testing/synctest"
	"time"

	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/hook"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// resumeWorld is a tmux agent whose Claude Code (version) says its 5-hour
// limit is used up and resets in 10 s; rate_limit.resume_margin is 5 s.
// The schedule is hourly: no wakeup of its own comes in the test.
func resumeWorld(t *testing.T, version string) (*harness, *recorder, *workspace.Workspace, time.Time) {
	return resumeWorldIn(t, testConfig(t), version)
}

func resumeWorldIn(t *testing.T, cfg *config.Config, version string) (*harness, *recorder, *workspace.Workspace, time.Time) {
	cfg.Pulse.Interval = config.Duration(time.Second)
	cfg.Schedule.Every = config.Duration(time.Hour)
	cfg.RateLimit.ResumeMargin = config.Duration(5 * time.Second)
	cfg.Thresholds.InactivityWarning, cfg.Thresholds.InactivityError = config.Duration(time.Hour), config.Duration(2*time.Hour)
	rec := &recorder{method: config.DeliveryTmux}
	h := startFake(t, cfg, rec.factory)
	ws, _ := workspace.New(cfg.Workspace, nil)
	time.Sleep(100 * time.Millisecond)
	synctest.Wait()
	reset := time.Now().Add(10 * time.Second).Truncate(time.Second)
	said(t, ws, hook.Event{Kind: hook.RateLimit, Version: version, Limits: []hook.Limit{{Window: "five_hour", Used: 100, Resets: reset}}})
	time.Sleep(time.Second)
	synctest.Wait()
	return h, rec, ws, reset
}

// The client continues by itself after the reset: the watchdog wakes
// nothing, and says the client did.
func TestClientResumesAtReset(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h, rec, ws, reset := resumeWorld(t, "2.1.337")
		time.Sleep(time.Until(reset) + 2*time.Second)
		said(t, ws, hook.Event{Kind: hook.TurnStart}) // the client's own continuation
		time.Sleep(20 * time.Second)
		synctest.Wait()
		if ps := rec.prompts(); len(ps) != 0 {
			t.Fatalf("wakeups %q: want none, the client continued by itself", ps)
		}
		if limitAlerts(t, h, "service", "ok", "continued by itself") != 1 || limitAlerts(t, h, "service", "warning", "did not continue") != 0 {
			t.Fatalf("alerts %v: want the client's own continuation said", alertsOf(t, h.alerts))
		}
	})
}

// No turn within the margin: one alert and one wakeup, and no other.
func TestClientDoesNotResumeAtReset(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h, rec, _, reset := resumeWorld(t, "2.1.337")
		time.Sleep(time.Until(reset) + 4*time.Second) // within the margin
		synctest.Wait()
		if ps := rec.prompts(); len(ps) != 0 {
			t.Fatalf("wakeups %q within the margin: want none", ps)
		}
		time.Sleep(2 * time.Second) // the margin is over
		synctest.Wait()
		if ps := rec.prompts(); len(ps) != 1 || countWith(ps, "did not continue by itself") != 1 || limitAlerts(t, h, "service", "warning", "did not continue by itself") != 1 {
			t.Fatalf("wakeups %q, alerts %v: want one wakeup and its alert", ps, alertsOf(t, h.alerts))
		}
		time.Sleep(30 * time.Second)
		synctest.Wait()
		if ps := rec.prompts(); len(ps) != 1 {
			t.Fatalf("wakeups %q: want one for one reset", ps)
		}
	})
}

// A client without the feature (2.1.197), or one that names no version,
// is woken at the reset as before: the hold ends at the reset, nothing
// waits for a turn.
func TestOlderClientIsWokenAtReset(t *testing.T) {
	for _, v := range []string{"2.1.197", ""} {
		t.Run("version "+v, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				h, _, _, reset := resumeWorld(t, v)
				time.Sleep(time.Until(reset) + 1500*time.Millisecond)
				synctest.Wait()
				if limitAlerts(t, h, "service", "ok", "wakeups resume") != 1 || limitAlerts(t, h, "service", "warning", "continues by itself") != 0 {
					t.Fatalf("alerts %v: want the hold ended at the reset, no turn awaited", alertsOf(t, h.alerts))
				}
			})
		})
	}
}

// A forged version (the status line is the agent's to pipe) delays the
// watchdog's wakeup by rate_limit.resume_margin at most.
func TestForgedVersionDelaysByTheMarginOnly(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		_, rec, _, reset := resumeWorld(t, "99999999.9.9")
		time.Sleep(time.Until(reset) + 6*time.Second)
		synctest.Wait()
		if ps := rec.prompts(); len(ps) != 1 {
			t.Fatalf("wakeups %q: want one, by the reset plus the margin", ps)
		}
	})
}

// The workspace's own settings turn the client's continuing off: the
// watchdog wakes the agent at the reset, with no margin awaited. A local
// file's word wins over the shared one, as in the client.
func TestAutoContinueOffIsWokenAtReset(t *testing.T) {
	for name, files := range map[string]map[string]string{
		"shared off":        {".claude/settings.json": `{"autoContinueAtUsageLimit": false}`},
		"local off over on": {".claude/settings.json": `{"autoContinueAtUsageLimit": true}`, ".claude/settings.local.json": `{"autoContinueAtUsageLimit": false}`},
	} {
		t.Run(name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				cfg := testConfig(t)
				for rel, body := range files {
					p := filepath.Join(cfg.Workspace, rel)
					if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
						t.Fatal(err)
					}
				}
				h, _, _, reset := resumeWorldIn(t, cfg, "2.1.337")
				time.Sleep(time.Until(reset) + 1500*time.Millisecond)
				synctest.Wait()
				if limitAlerts(t, h, "service", "ok", "wakeups resume") != 1 || limitAlerts(t, h, "service", "warning", "continues by itself") != 0 {
					t.Fatalf("alerts %v: want the hold ended at the reset, no turn awaited", alertsOf(t, h.alerts))
				}
			})
		})
	}
}
