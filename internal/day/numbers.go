package day

import (
	"strings"
	"time"
)

// Numbers are what users compare supervisors by, measured from an agent's
// marks over a span (docs/measured.md says each):
//   - unrecovered stalls (recovery gave up) per 24 hours supervised;
//   - scheduled wakeups delivered when due, of those that came due;
//   - rate-limit resets after which a wakeup went in or work began within
//     10 minutes;
//   - hours alone: supervised hours per stretch between a person's
//     interventions (a pause, a resume, urgent feedback, an answer to the
//     agent's question);
//   - answered wakeups whose work changed nothing.
type Numbers struct {
	From time.Time `json:"from"`
	To   time.Time `json:"to"`
	// Hours supervised: neither paused, offline, stopped nor outside
	// active hours.
	Hours          float64 `json:"hours"`
	Stalls         int     `json:"unrecovered_stalls"`
	StallsPer24h   float64 `json:"unrecovered_stalls_per_24h"`
	Scheduled      int     `json:"scheduled_wakeups"`
	OnTime         int     `json:"scheduled_on_time"`
	Resets         int     `json:"rate_limit_resets"`
	Resumed        int     `json:"resumed_within_10m"`
	Interventions  int     `json:"interventions"`
	HoursAlone     float64 `json:"hours_alone"`
	Answered       int     `json:"answered_wakeups"`
	NothingChanged int     `json:"nothing_changed"`
}

// resumeWithin is how soon after a rate limit's reset work must begin
// again for the reset to count as resumed.
const resumeWithin = 10 * time.Minute

// Measure reads the numbers from marks (oldest first) over [from, to).
// mode is the agent's mode at from ("" when unknown: not counted until the
// first mode mark).
func Measure(marks []Mark, from, to time.Time, mode string) Numbers {
	n := Numbers{From: from, To: to}
	last := from
	supervised := func(m string) bool {
		switch m {
		case "", Paused, Offline, Stopped, Outside:
			return false
		}
		return true
	}
	var resets []time.Time
	var resumedAt []time.Time // wakeups delivered and work begun
	for _, m := range marks {
		if m.Time.Before(from) || !m.Time.Before(to) {
			continue
		}
		switch m.Kind {
		case KindMode:
			if supervised(mode) {
				n.Hours += m.Time.Sub(last).Hours()
			}
			if m.Mode == Paused && mode != Paused || mode == WaitingForYou && m.Mode != WaitingForYou {
				n.Interventions++ // a pause begun, a question answered
			}
			if m.Mode == Working {
				resumedAt = append(resumedAt, m.Time)
			}
			mode, last = m.Mode, m.Time
		case KindAlert:
			switch {
			case m.Check == "gave_up" && m.Level == "error":
				n.Stalls++
			case m.Check == "gave_up" && m.Level == "ok" && strings.Contains(m.Message, "operator resumed"):
				n.Interventions++
			case m.Check == "service" && m.Level == "ok" && strings.HasPrefix(m.Message, "the rate limit reset"):
				resets = append(resets, m.Time)
			}
		case KindWakeup:
			if m.Source == "feedback" {
				n.Interventions++
			}
			delivered := m.Outcome == "delivered" || m.Outcome == "ghost"
			if m.Source == "schedule" {
				n.Scheduled++
				if delivered {
					n.OnTime++
				}
			}
			if delivered {
				resumedAt = append(resumedAt, m.Time)
			}
		case KindWork:
			n.Answered++
			if strings.HasPrefix(m.Message, "nothing changed") {
				n.NothingChanged++
			}
		}
	}
	if supervised(mode) && to.After(last) {
		n.Hours += to.Sub(last).Hours()
	}
	for _, r := range resets {
		n.Resets++
		for _, w := range resumedAt {
			if !w.Before(r) && w.Sub(r) <= resumeWithin {
				n.Resumed++
				break
			}
		}
	}
	if n.Hours > 0 {
		n.StallsPer24h = float64(n.Stalls) / n.Hours * 24
	}
	n.HoursAlone = n.Hours / float64(n.Interventions+1)
	return n
}

// Add is the numbers of two agents (or spans) together: a fleet's.
func (n Numbers) Add(o Numbers) Numbers {
	s := Numbers{From: n.From, To: n.To, Hours: n.Hours + o.Hours, Stalls: n.Stalls + o.Stalls,
		Scheduled: n.Scheduled + o.Scheduled, OnTime: n.OnTime + o.OnTime, Resets: n.Resets + o.Resets, Resumed: n.Resumed + o.Resumed,
		Interventions: n.Interventions + o.Interventions, Answered: n.Answered + o.Answered, NothingChanged: n.NothingChanged + o.NothingChanged}
	if s.From.IsZero() || !o.From.IsZero() && o.From.Before(s.From) {
		s.From = o.From
	}
	if o.To.After(s.To) {
		s.To = o.To
	}
	if s.Hours > 0 {
		s.StallsPer24h = float64(s.Stalls) / s.Hours * 24
	}
	s.HoursAlone = s.Hours / float64(s.Interventions+1)
	return s
}

// Field is an agent's numbers today (from its local midnight) and over the
// days kept (Keep, today included).
type Field struct {
	Today Numbers `json:"today"`
	Week  Numbers `json:"last_7_days"`
}

// LoadField reads an agent's Field from the day files in its state folder
// dir.
func LoadField(dir string, loc *time.Location, now time.Time) (Field, error) {
	n := now.In(loc)
	midnight := time.Date(n.Year(), n.Month(), n.Day(), 0, 0, 0, 0, loc)
	first := midnight.AddDate(0, 0, -(Keep - 1))
	marks, prior, err := Span(dir, loc, first, now)
	if err != nil {
		return Field{}, err
	}
	today, before := marks, prior
	for i, m := range marks {
		if !m.Time.Before(midnight) {
			today = marks[i:]
			break
		}
		if m.Kind == KindMode {
			before = m.Mode
		}
		today = nil
	}
	return Field{Today: Measure(today, midnight, now, before), Week: Measure(marks, first, now, prior)}, nil
}
