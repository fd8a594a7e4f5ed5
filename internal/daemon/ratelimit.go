package daemon

import (
	"fmt"
	"maps"
	"strings"
	"time"

	"github.com/ai-heart/ai-heart/internal/checks"
	"github.com/ai-heart/ai-heart/internal/clients"
	"github.com/ai-heart/ai-heart/internal/hook"
	"github.com/ai-heart/ai-heart/internal/humanize"
	"github.com/ai-heart/ai-heart/internal/state"
	"github.com/ai-heart/ai-heart/internal/wakeup"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// Where the client says when its rate limit resets (Claude Code's status
// line: heart-hook --statusline records it), the watchdog holds wakeups
// until that reset once a limit is used up (rate_limit.hold_until_reset),
// as it holds them after a service failure: then one wakeup probes, and a
// success resumes them. Before that, past rate_limit.spread_at of a limit,
// the schedule's wakeups are spread so the window lasts, never further
// apart than rate_limit.spread_max. The report is the agent's word (it can
// pipe any line to heart-hook), so it is bounded: only the client's own
// windows are believed, a reset only within its window's span from now, a
// hold never outlasts its reset, both are alerted, and `watchdog resume`
// ends them: the windows it dismissed are not believed again before their
// reset, across a restart or a reload.

// limitSpans are the windows Claude Code's status line sends (its
// rate_limits) and the longest each lasts from now: the bound on a reset
// it reports. No other name is the client's: not believed, not kept.
var limitSpans = map[string]time.Duration{
	"five_hour": 5 * time.Hour,
	"seven_day": 7 * 24 * time.Hour,
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

// limitWhy is a limit's state in words: "5-hour limit, 100 % used".
func limitWhy(window string, l rateLimit) string {
	return fmt.Sprintf("%s, %.0f %% used", limitTitle(window), l.used)
}

// rateLimit is the newest believable report of one window.
type rateLimit struct {
	used   float64 // percent
	resets time.Time
}

// limitMemory is what the rate limits did to the wakeups. Under agent.mu.
type limitMemory struct {
	// limitHeld is the reset a rate limit's hold waits for (zero: none).
	limitHeld time.Time
	// spread is the spreading in force, as alerted (nil: none).
	spread *state.Spread
	// limitSince is when the hold or spread in force began: a `watchdog
	// resume` after it ends them.
	limitSince time.Time
	// dismissed are the windows a resume ended, until their reset: no
	// report of them is believed before it.
	dismissed map[string]time.Time
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

// holdUntil holds wakeups until until for window's why, unless a hold as
// long is in force; a hold it begins is followed by one probe, as a
// service failure's.
func (g *gate) holdUntil(until time.Time, window, why string) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if !until.After(g.svc.until) {
		return false
	}
	g.svc.until, g.svc.kind, g.svc.limit, g.svc.streak = until, why, window, max(g.svc.streak, 1)
	return true
}

// endLimitHold ends a hold a rate limit began (the client continued by
// itself after its reset): no probe follows.
func (g *gate) endLimitHold() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.svc.limit != "" {
		g.svc = serviceHold{}
	}
}

// dismissLimits forgets the windows used past mark (a share; 0: only the
// used-up ones) and ends a hold one of them began. It returns the windows
// and their resets.
func (g *gate) dismissLimits(now time.Time, mark float64) map[string]rateLimit {
	g.mu.Lock()
	defer g.mu.Unlock()
	out := map[string]rateLimit{}
	for w, l := range g.limits {
		if now.Before(l.resets) && (l.used >= 100 || mark > 0 && l.used/100 >= mark) {
			out[w] = l
			delete(g.limits, w)
		}
	}
	if g.svc.limit != "" {
		g.svc = serviceHold{}
	}
	return out
}

// spreading is the limit that spreads the schedule at now past mark (a
// share; 0 = off): of those used past it and not used up, the one whose
// gap is the widest. ok is false when none does.
func (g *gate) spreading(now time.Time, mark float64) (window string, l rateLimit, gap time.Duration, ok bool) {
	if mark <= 0 {
		return "", rateLimit{}, 0, false
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	for w, x := range g.limits {
		u := x.used / 100
		if u < mark || u >= 1 || !now.Before(x.resets) {
			continue
		}
		d := time.Duration(float64(x.resets.Sub(now)) * (u - mark) / (1 - mark))
		if !ok || d > gap || d == gap && w < window {
			window, l, gap, ok = w, x, d, true
		}
	}
	return window, l, gap, ok
}

// spreadOut reports whether a scheduled wakeup at now waits, to spread the
// rest of a limit used past mark over the time to its reset: the last
// wakeup must be at least (time to the reset) × (used − mark) ÷ (1 − mark)
// old, and never more than widest. At the mark no wait; near the limit,
// the widest.
func (g *gate) spreadOut(now time.Time, mark float64, widest time.Duration) bool {
	_, _, gap, ok := g.spreading(now, mark)
	if !ok {
		return false
	}
	if widest > 0 {
		gap = min(gap, widest)
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	last := g.m.LastWakeup
	return !last.IsZero() && now.Sub(last) < gap
}

// limitWhen is t for an alert: the time of day, with the date when it is
// not today's.
func limitWhen(t, now time.Time, loc *time.Location) string {
	t, now = t.In(loc), now.In(loc)
	if y, m, d := t.Date(); y == now.Year() && m == now.Month() && d == now.Day() {
		return t.Format("15:04")
	}
	return t.Format("2006-01-02 15:04")
}

// rateLimits folds in the limits a client reported, learnt at now.
func (a *agent) rateLimits(now time.Time, id workspace.ID, limits []hook.Limit) {
	kept := map[string]rateLimit{}
	a.mu.Lock()
	for _, l := range limits {
		span, ours := limitSpans[l.Window]
		switch {
		case !ours:
			a.log.Debug().Str("window", l.Window).Msg("a rate limit's window the client never sends: not believed")
			continue
		case !l.Resets.After(now) || l.Resets.After(now.Add(span)):
			a.log.Debug().Str("window", l.Window).Time("resets", l.Resets).Msg("a rate limit's reset that is past or beyond its window: not believed")
			continue
		case now.Before(a.dismissed[l.Window]):
			a.log.Debug().Str("window", l.Window).Time("dismissed_until", a.dismissed[l.Window]).Msg("a rate limit `watchdog resume` ended: not believed before its reset")
			continue
		}
		kept[l.Window] = rateLimit{used: l.Used, resets: l.Resets}
	}
	a.mu.Unlock()
	a.gate.noteLimits(kept)
	if !a.cfg.RateLimit.HoldUntilReset {
		return
	}
	for w, l := range kept {
		if l.used < 100 {
			continue
		}
		why := limitWhy(w, l)
		a.mu.Lock()
		resumes := a.clientResumes()
		a.mu.Unlock()
		if resumes && clients.AutoContinueOff(a.ws.Root) {
			resumes = false // the workspace turned it off: the watchdog wakes at the reset
		}
		until := l.resets
		if resumes {
			until = l.resets.Add(a.cfg.RateLimit.ResumeMargin.D()) // the client's turn is awaited first
		}
		if !a.gate.holdUntil(until, w, why) {
			continue
		}
		a.mu.Lock()
		a.serviceAlerted = true
		a.limitHeld = until
		if resumes {
			a.resumeAt, a.resumed = l.resets, false
		}
		if a.limitSince.IsZero() {
			a.limitSince = now
		}
		a.gate.step(now, wakeup.Wait{}) // the agent waits for the limit, not for its own work
		a.mu.Unlock()
		a.noteWork()
		if resumes {
			a.emit(now, id, checks.Warning, "service", fmt.Sprintf("the client's rate limit is used up: wakeups held until %s (%s); the client continues by itself at the reset, and if no turn starts by %s (rate_limit.resume_margin) the watchdog wakes the agent once (`watchdog resume` ends the hold)", limitWhen(l.resets, now, a.loc), why, limitWhen(until, now, a.loc)), 0)
			continue
		}
		a.emit(now, id, checks.Warning, "service", fmt.Sprintf("the client's rate limit is used up: wakeups held until %s (%s), then one wakeup probes it (rate_limit.hold_until_reset; `watchdog resume` ends it)", limitWhen(l.resets, now, a.loc), why), 0)
	}
}

// limitsInForce reports whether a rate limit holds or spreads the wakeups:
// then each pulse reads whether the operator resumed since.
func (a *agent) limitsInForce() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return !a.limitSince.IsZero()
}

// limitsResumed ends, once the operator's `watchdog resume` (at resumed)
// came after they began, the rate limits' hold and spreading in force, and
// dismisses their windows until their reset.
func (a *agent) limitsResumed(now time.Time, id workspace.ID, resumed time.Time) {
	a.mu.Lock()
	since, spread, held := a.limitSince, a.spread, a.limitHeld
	a.mu.Unlock()
	if since.IsZero() || !resumed.After(since) {
		return
	}
	gone := a.gate.dismissLimits(now, a.cfg.RateLimit.SpreadAt)
	a.mu.Lock()
	if a.dismissed == nil {
		a.dismissed = map[string]time.Time{}
	}
	for w, l := range gone {
		a.dismissed[w] = l.resets
	}
	a.limitHeld, a.spread, a.limitSince = time.Time{}, nil, time.Time{}
	a.resumeAt, a.resumed = time.Time{}, false
	a.mu.Unlock()
	var ended []string
	if !held.IsZero() {
		ended = append(ended, "the hold of the wakeups until "+limitWhen(held, now, a.loc))
	}
	if spread != nil {
		ended = append(ended, "the spreading of the schedule's wakeups until "+limitWhen(spread.Until, now, a.loc)+" ("+spread.Why+")")
	}
	if len(ended) == 0 {
		return
	}
	var windows []string
	for w, l := range gone {
		windows = append(windows, limitTitle(w)+" until "+limitWhen(l.resets, now, a.loc))
	}
	a.emit(now, id, checks.OK, "service", fmt.Sprintf("`watchdog resume` ended %s: the wakeups go on as scheduled, and the client's reports of the same limit are not believed again before its reset (%s)",
		strings.Join(ended, " and "), strings.Join(windows, ", ")), 0)
}

// limitResumes says, once, that a rate limit's hold has ended.
func (a *agent) limitResumes(now time.Time, id workspace.ID) {
	if a.resumeMissed(now, id) {
		return
	}
	a.mu.Lock()
	until := a.limitHeld
	if until.IsZero() || now.Before(until) {
		a.mu.Unlock()
		return
	}
	a.limitHeld = time.Time{}
	a.mu.Unlock()
	a.emit(now, id, checks.OK, "service", fmt.Sprintf("the rate limit reset at %s: wakeups resume, the next one probes the service", limitWhen(until, now, a.loc)), 0)
}

// noteSpread says when the schedule's spreading begins (once per window
// and reset: until when, why, how far apart at most) and when it ends.
func (a *agent) noteSpread(now time.Time, id workspace.ID) {
	rl := a.cfg.RateLimit
	w, l, _, ok := a.gate.spreading(now, rl.SpreadAt)
	var sp *state.Spread
	if ok {
		sp = &state.Spread{Window: w, Why: limitWhy(w, l), Until: l.resets, MaxGap: rl.SpreadMax}
	}
	a.mu.Lock()
	was := a.spread
	a.spread = sp
	if sp != nil && a.limitSince.IsZero() {
		a.limitSince = now
	}
	if sp == nil && a.limitHeld.IsZero() {
		a.limitSince = time.Time{}
	}
	a.mu.Unlock()
	switch {
	case sp != nil && (was == nil || was.Window != sp.Window || !was.Until.Equal(sp.Until)):
		a.emit(now, id, checks.Warning, "service", fmt.Sprintf("the client's %s, past rate_limit.spread_at (%.0f %%): the schedule's wakeups are spread out until %s (its reset) so the limit lasts, at most %s apart (rate_limit.spread_max); `watchdog resume` ends it",
			sp.Why, rl.SpreadAt*100, limitWhen(sp.Until, now, a.loc), humanize.Duration(rl.SpreadMax.D())), 0)
	case sp == nil && was != nil:
		a.emit(now, id, checks.OK, "service", fmt.Sprintf("the schedule's wakeups are no longer spread (%s until %s)", was.Why, limitWhen(was.Until, now, a.loc)), 0)
	}
}

// limitState is the rate limits' part of the schedule chamber. Called with
// a.mu held.
func (a *agent) limitState(now time.Time, sc *state.ScheduleChamber) {
	if a.spread != nil {
		sp := *a.spread
		sc.Spread = &sp
	}
	for w, until := range a.dismissed {
		if !now.Before(until) {
			delete(a.dismissed, w) // its reset has come: a new window
		}
	}
	if len(a.dismissed) > 0 {
		sc.Dismissed = maps.Clone(a.dismissed)
	}
	if !a.limitHeld.IsZero() {
		sc.HeldLimit = true
	}
}

// restoreLimits reads back, from the state file the last run left, the
// windows a resume dismissed: the spool's tail, read again at the start,
// must not arm them again.
func (a *agent) restoreLimits(now time.Time) {
	prev, err := state.Load(a.dir) // the watchdog's own copy, not the published one the agent can write
	if err != nil {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	for w, until := range prev.Chambers.Schedule.Dismissed {
		if _, ours := limitSpans[w]; ours && now.Before(until) && until.Before(now.Add(limitSpans[w])) {
			if a.dismissed == nil {
				a.dismissed = map[string]time.Time{}
			}
			a.dismissed[w] = until
		}
	}
}
