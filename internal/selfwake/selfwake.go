// Package selfwake judges what a client says will wake its session by
// itself (Claude Code's Stop hook: its background work in flight and its
// own crons, CronCreate, ScheduleWakeup and /loop): a session parked on
// them is not idle, and a cron that has not fired by its time plus a
// margin is missed. The report is the agent's word (it can pipe any line
// to heart-hook), so a parked session holds judgement off for a bounded
// time only. Pure: functions of the report and now.
package selfwake

import (
	"strings"
	"time"

	"github.com/robfig/cron/v3"

	"github.com/ai-heart/ai-heart/internal/hook"
)

// Parked is what the client said at a turn's end of what will wake the
// session by itself. The zero value is a session parked on nothing.
type Parked struct {
	At    time.Time // the turn's end that said it
	Tasks int       // background work in flight
	// Next is when the earliest of its crons fires after At (zero: none
	// can), Cron that cron's ID and schedule.
	Next time.Time
	Cron hook.Cron
	// Bad counts the crons whose schedule is no 5-field cron expression.
	Bad int
}

// Read is the parked state a turn's end at at reports, the crons read in
// loc (the client's time zone).
func Read(at time.Time, tasks int, crons []hook.Cron, loc *time.Location) Parked {
	p := Parked{At: at, Tasks: max(tasks, 0)}
	for _, c := range crons {
		next, ok := nextFire(c.Schedule, at, loc)
		if !ok {
			p.Bad++
			continue
		}
		if !next.IsZero() && (p.Next.IsZero() || next.Before(p.Next)) {
			p.Next, p.Cron = next, c
		}
	}
	return p
}

// Any reports a session parked on something.
func (p Parked) Any() bool { return p.Tasks > 0 || !p.Next.IsZero() }

// parser reads the client's 5-field crons only: no descriptors (@every),
// no seconds field.
var parser = cron.NewParser(cron.Minute | cron.Hour | cron.Dom | cron.Month | cron.Dow)

// nextFire is the first time spec fires after at in loc; ok is false for
// a spec that is no 5-field cron (zero with ok: one that never fires).
func nextFire(spec string, at time.Time, loc *time.Location) (next time.Time, ok bool) {
	// Only the characters of a 5-field cron: robfig reads a TZ= prefix
	// itself and panics on some.
	if len(strings.Fields(spec)) != 5 || strings.ContainsFunc(spec, func(r rune) bool {
		return !(r >= '0' && r <= '9' || r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || strings.ContainsRune(" */,-?", r))
	}) {
		return time.Time{}, false
	}
	defer func() {
		if recover() != nil {
			next, ok = time.Time{}, false
		}
	}()
	s, err := parser.Parse(spec)
	if err != nil {
		return time.Time{}, false
	}
	return s.Next(at.In(loc)), true
}

// Config bounds what a parked session holds off.
type Config struct {
	// Margin is how late a cron may fire before it is missed: the
	// client's own jitter, and clocks that disagree.
	Margin time.Duration
	// MaxHold is the longest a report holds the idle wakeup off: a cron
	// further off, or background work longer, is not believed past it.
	MaxHold time.Duration
}

// Verdict is what a parked session means at now.
type Verdict struct {
	// Hold: no idle wakeup now, the session will wake by itself.
	Hold bool
	// Missed: the cron due at Parked.Next has not fired by its time plus
	// the margin.
	Missed bool
	// Capped: the report asked for more than MaxHold, and MaxHold is over.
	Capped bool
}

// Judge is what p means at now, by cfg.
func Judge(p Parked, now time.Time, cfg Config) Verdict {
	if !p.Any() {
		return Verdict{}
	}
	limit := p.At.Add(cfg.MaxHold)
	var until time.Time
	if p.Tasks > 0 {
		until = limit
	}
	var v Verdict
	if !p.Next.IsZero() {
		due := p.Next.Add(cfg.Margin)
		switch {
		case due.After(limit):
			until = limit
			v.Capped = !now.Before(limit)
		case !now.Before(due):
			v.Missed = true
		case due.After(until):
			until = due
		}
	}
	if p.Tasks > 0 && !now.Before(limit) {
		v.Capped = true
	}
	v.Hold = !v.Missed && now.Before(until)
	return v
}
