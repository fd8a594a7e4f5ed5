package daemon

import (
	"fmt"
	"time"

	"github.com/ai-heart/ai-heart/internal/checks"
	"github.com/ai-heart/ai-heart/internal/hook"
	"github.com/ai-heart/ai-heart/internal/wakeup"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// Where the client says when its rate limit resets (Claude Code's status
// line: heart-hook --statusline records it), the watchdog holds wakeups
// until that reset once a limit is used up (rate_limit.hold_until_reset),
// as it holds them after a service failure: then one wakeup probes, and a
// success resumes them. Before that, past rate_limit.spread_at of a limit,
// the schedule's wakeups are spread so the window lasts. The report is the
// agent's word (it can pipe any line to heart-hook): a reset is believed
// only within its window's length from now (a forged one far ahead is not
// believed at all), and a hold never outlasts its reset.

// limitSpan is the longest a window of the client's may last from now:
// the bound on a reset it reports.
func limitSpan(window string) time.Duration {
	if window == "five_hour" {
		return 5 * time.Hour
	}
	return 7 * 24 * time.Hour
}

// limitTitle is how a window is named to people.
func limitTitle(window string) string {
	switch window {
	case "five_hour":
		return "5-hour limit"
	case "seven_day":
		return "7-day limit"
	}
	return window + " limit"
}

// rateLimit is the newest believable report of one window.
type rateLimit struct {
	used   float64 // percent
	resets time.Time
}

// noteLimits keeps the newest report of each window. Guarded by the
// gate's lock.
func (g *gate) noteLimits(ls map[string]rateLimit) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.limits == nil {
		g.limits = map[string]rateLimit{}
	}
	for w, l := range ls {
		g.limits[w] = l
	}
}

// holdUntil holds wakeups until until for why, unless a hold as long is in
// force; a hold it begins is followed by one probe, as a service failure's.
func (g *gate) holdUntil(until time.Time, why string) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if !until.After(g.svc.until) {
		return false
	}
	g.svc.until, g.svc.kind, g.svc.streak = until, why, max(g.svc.streak, 1)
	return true
}

// spreadOut reports whether a scheduled wakeup at now waits, to spread the
// rest of a limit used past mark (a share; 0 = off) over the time to its
// reset: the last wakeup must be at least (time to the reset) × (used −
// mark) ÷ (1 − mark) old. At the mark no wait; near the limit, nearly the
// whole time to the reset.
func (g *gate) spreadOut(now time.Time, mark float64) bool {
	if mark <= 0 {
		return false
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	for _, l := range g.limits {
		u := l.used / 100
		if u < mark || u >= 1 || !now.Before(l.resets) {
			continue
		}
		gap := time.Duration(float64(l.resets.Sub(now)) * (u - mark) / (1 - mark))
		if last := g.m.LastWakeup; !last.IsZero() && now.Sub(last) < gap {
			return true
		}
	}
	return false
}

// rateLimits folds in the limits a client reported, learnt at now.
func (a *agent) rateLimits(now time.Time, id workspace.ID, limits []hook.Limit) {
	kept := map[string]rateLimit{}
	for _, l := range limits {
		if !l.Resets.After(now) || l.Resets.After(now.Add(limitSpan(l.Window))) {
			a.log.Debug().Str("window", l.Window).Time("resets", l.Resets).Msg("a rate limit's reset that is past or beyond its window: not believed")
			continue
		}
		kept[l.Window] = rateLimit{used: l.Used, resets: l.Resets}
	}
	a.gate.noteLimits(kept)
	if !a.cfg.RateLimit.HoldUntilReset {
		return
	}
	for w, l := range kept {
		if l.used < 100 {
			continue
		}
		why := fmt.Sprintf("%s, %.0f %% used", limitTitle(w), l.used)
		if !a.gate.holdUntil(l.resets, why) {
			continue
		}
		a.mu.Lock()
		a.serviceAlerted = true
		a.limitHeld = l.resets
		a.gate.step(now, wakeup.Wait{}) // the agent waits for the limit, not for its own work
		a.mu.Unlock()
		a.noteWork()
		a.emit(now, id, checks.Warning, "service", fmt.Sprintf("the client's rate limit is used up: wakeups held until %s (%s), then one wakeup probes it (rate_limit.hold_until_reset)", l.resets.In(a.loc).Format("15:04"), why), 0)
	}
}

// limitResumes says, once, that a rate limit's hold has ended.
func (a *agent) limitResumes(now time.Time, id workspace.ID) {
	a.mu.Lock()
	until := a.limitHeld
	if until.IsZero() || now.Before(until) {
		a.mu.Unlock()
		return
	}
	a.limitHeld = time.Time{}
	a.mu.Unlock()
	a.emit(now, id, checks.OK, "service", fmt.Sprintf("the rate limit reset at %s: wakeups resume, the next one probes the service", until.In(a.loc).Format("15:04")), 0)
}
