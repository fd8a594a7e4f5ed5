// Package schedule computes when the schedule chamber wakes the agent: every
// schedule.every, or on schedule.cron, plus the extra wakeups of
// schedule.extra, each with its own cron spec and prompt.
//
// A Plan is pure: it takes the time as an argument and holds no timer. The
// daemon asks Next(now) at start, so a restart never replays the wakeups it
// missed, and NextFrom(due, now) after each wakeup, so a long pause (the
// machine asleep, a slow delivery) gives one wakeup, the late one, not a
// burst of the missed ones.
//
// Cron specs (5 fields or descriptors such as @hourly) are read as wall-clock
// times in the plan's location, like a cron daemon does: on a spring-forward
// day a time inside the skipped hour fires at the same offset after the jump
// (02:30 in New York fires at 03:30 EDT), and on a fall-back day a wall-clock
// time fires once, at its first occurrence, not again in the repeated hour
// (so "0 * * * *" fires at 01:00 EDT and next at 02:00 EST). @every specs
// count elapsed time instead.
package schedule

import (
	"fmt"
	"slices"
	"time"

	"github.com/robfig/cron/v3"

	"github.com/ai-heart/ai-heart/internal/config"
)

// Wakeup sources.
const (
	// SourceSchedule is the regular wakeup of schedule.every or schedule.cron.
	SourceSchedule = "schedule"
	// SourceExtra is a wakeup of schedule.extra.
	SourceExtra = "extra"
)

// Wakeup is one planned wakeup.
type Wakeup struct {
	// At is when it is due, in the plan's location.
	At time.Time
	// Source is SourceSchedule or SourceExtra.
	Source string
	// Prompt is the extra wakeup's prompt; "" means the normal heartbeat prompt.
	Prompt string
}

// source is one stream of wakeups: every > 0, or a cron schedule.
type source struct {
	name   string
	prompt string
	every  time.Duration
	cron   cron.Schedule
}

// Plan is the schedule chamber's timetable. It is immutable and safe for
// concurrent use.
type Plan struct {
	loc *time.Location
	// sources has the regular schedule first (if any), then the extras in
	// configuration order: the order ties are broken in.
	sources []source
}

// New builds the plan of cfg in loc (nil = Local). schedule.cron replaces
// schedule.every when set; every 0 with no cron means no regular wakeups.
// Specs go through config.ParseCron, so TZ= and CRON_TZ= prefixes are
// refused: loc applies to every spec.
func New(cfg config.Schedule, loc *time.Location) (*Plan, error) {
	if loc == nil {
		loc = time.Local
	}
	if cfg.Every < 0 {
		return nil, fmt.Errorf("build schedule: every must not be negative, got %s", cfg.Every.D())
	}
	p := &Plan{loc: loc}
	switch {
	case cfg.Cron != "":
		s, err := config.ParseCron(cfg.Cron)
		if err != nil {
			return nil, fmt.Errorf("parse schedule.cron: %w", err)
		}
		p.sources = append(p.sources, source{name: SourceSchedule, cron: s})
	case cfg.Every > 0:
		p.sources = append(p.sources, source{name: SourceSchedule, every: cfg.Every.D()})
	}
	for i, x := range cfg.Extra {
		s, err := config.ParseCron(x.Cron)
		if err != nil {
			return nil, fmt.Errorf("parse schedule.extra[%d].cron: %w", i, err)
		}
		p.sources = append(p.sources, source{name: SourceExtra, prompt: x.Prompt, cron: s})
	}
	return p, nil
}

// Next returns the earliest wakeup strictly after after: after + every in
// every mode, the next cron time in cron mode, and each extra's next time.
// On a tie the regular schedule comes first, then the extras in order. ok is
// false when nothing is configured (or no spec ever fires again).
func (p *Plan) Next(after time.Time) (w Wakeup, ok bool) {
	for _, s := range p.sources {
		at := p.next(s, after)
		if at.IsZero() {
			continue
		}
		if !ok || at.Before(w.At) {
			w, ok = Wakeup{At: at, Source: s.name, Prompt: s.prompt}, true
		}
	}
	return w, ok
}

// NextFrom returns the wakeup that follows the one due at last, given that
// it is now: Next(last) when that is still ahead of now; otherwise every
// occurrence in (last, now] is skipped and the first one after now is
// returned, so the result is never before now. Skipped occurrences are
// dropped, not replayed: after a long pause the wakeup that was due (and
// fires late) is the only immediate one, and wakeups that fall due during a
// slow delivery merge into it. Every mode keeps its phase: the result is
// last + n*every for the smallest n that lands after now.
func (p *Plan) NextFrom(last, now time.Time) (w Wakeup, ok bool) {
	if w, ok = p.Next(last); !ok || w.At.After(now) {
		return w, ok
	}
	ok = false
	for _, s := range p.sources {
		var at time.Time
		if s.every > 0 && now.After(last) {
			at = last.Add((now.Sub(last)/s.every + 1) * s.every).In(p.loc)
		} else {
			at = p.next(s, now)
		}
		if at.IsZero() {
			continue
		}
		if !ok || at.Before(w.At) {
			w, ok = Wakeup{At: at, Source: s.name, Prompt: s.prompt}, true
		}
	}
	return w, ok
}

// next is s's first time strictly after after, or the zero time if none.
func (p *Plan) next(s source, after time.Time) time.Time {
	if s.every > 0 {
		return after.Add(s.every).In(p.loc)
	}
	if _, elapsed := s.cron.(cron.ConstantDelaySchedule); elapsed {
		return s.cron.Next(after.In(p.loc))
	}
	// Walk the spec over naive wall-clock time (UTC has no DST), then map each
	// wall-clock time found back to an instant in loc.
	cursor := wall(after.In(p.loc))
	for range 4 {
		n := s.cron.Next(cursor)
		if n.IsZero() {
			return time.Time{}
		}
		for _, at := range instants(n, p.loc) {
			if at.After(after) {
				return at
			}
		}
		cursor = n
	}
	return s.cron.Next(after.In(p.loc)) // unreachable with real zones; robfig's own answer
}

// wall is t's wall clock in its location, as a naive UTC time.
func wall(t time.Time) time.Time {
	return time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), time.UTC)
}

// instants returns the instants, earliest first, at which loc's wall clock
// reads w (a naive UTC time): one normally, two in a fall-back's repeated
// hour. In a spring-forward gap, where none exists, it returns the single
// instant w would be with the offset before the jump (02:30 EST = 03:30 EDT).
func instants(w time.Time, loc *time.Location) []time.Time {
	guess := time.Date(w.Year(), w.Month(), w.Day(), w.Hour(), w.Minute(), w.Second(), w.Nanosecond(), loc)
	_, before := guess.Add(-12 * time.Hour).Zone()
	_, after := guess.Add(12 * time.Hour).Zone()
	var out []time.Time
	for _, off := range slices.Compact([]int{before, after}) {
		at := w.Add(-time.Duration(off) * time.Second).In(loc)
		if wall(at).Equal(w) {
			out = append(out, at)
		}
	}
	if len(out) == 0 {
		return []time.Time{w.Add(-time.Duration(before) * time.Second).In(loc)}
	}
	slices.SortFunc(out, func(a, b time.Time) int { return a.Compare(b) })
	return out
}
