package fleet

import (
	"slices"
	"sync"
	"time"

	"github.com/ai-heart/ai-heart/internal/checks"
	"github.com/ai-heart/ai-heart/internal/day"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// Bounds on the days a view keeps, per agent: what any peer on the broker
// sends must not grow it without limit. At 1,000 agents the worst case is
// 87 MB (BenchmarkDaysFull); a fleet whose agents change mode a hundred
// times a day keeps a few MB.
const (
	MaxDayModes     = 2000 // changes of mode, over the days kept
	MaxDayAlerts    = 100  // the newest alerts
	maxAlertMessage = 160  // bytes of an alert's message kept
	maxAlertCheck   = 64   // bytes of a check's name
)

// dayModes are the modes a strip draws, by code; anything else a peer
// sends is not kept.
var dayModes = []string{day.Working, day.Waiting, day.WaitingForYou, day.Paused, day.Outside, day.Offline}

// Days keeps each agent's day as a fleet view hears it, in memory: its
// mode from each state it receives (offline when the view judges it so)
// and the alerts it publishes, for the page's strip and the day's alerts.
// It knows only what arrived since the view started, in the view's own
// time zone, for day.Keep days. Safe for concurrent use.
type Days struct {
	loc *time.Location
	max int

	mu     sync.Mutex
	agents map[string]*heard
}

// heard is one agent's marks, oldest first.
type heard struct {
	last   time.Time // the newest mark: the quietest agent is forgotten first
	modes  []modeAt
	alerts []day.Mark
}

type modeAt struct {
	t    int64 // Unix nanoseconds
	mode uint8 // index in dayModes
}

// NewDays keeps the days of at most maxAgents agents (0: DefaultMaxMembers)
// in loc's days.
func NewDays(loc *time.Location, maxAgents int) *Days {
	if maxAgents <= 0 {
		maxAgents = DefaultMaxMembers
	}
	return &Days{loc: loc, max: maxAgents, agents: map[string]*heard{}}
}

// Heard records the member's mode when it changed: offline when the view
// says so (at now), else the mode its state carries (when the view saw it).
func (d *Days) Heard(m Member, now time.Time) {
	mode, at := m.Mode, m.LastSeen
	if !m.Online {
		mode, at = day.Offline, now
	}
	code := slices.Index(dayModes, mode)
	if code < 0 || at.IsZero() {
		return // an older watchdog's state carries no mode
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	h := d.agent(m.Agent, now)
	if n := len(h.modes); n > 0 && h.modes[n-1].mode == uint8(code) {
		return
	}
	h.modes = append(h.modes, modeAt{t: at.UnixNano(), mode: uint8(code)})
	if len(h.modes) > MaxDayModes {
		h.modes = slices.Delete(h.modes, 0, len(h.modes)-MaxDayModes)
	}
	if at.After(h.last) {
		h.last = at
	}
}

// Alert records an alert when it arrived (now): its own time is the
// agent's clock, which the view cannot check.
func (d *Days) Alert(a Alert, now time.Time) {
	if _, err := checks.ParseLevel(a.Level); err != nil {
		return
	}
	m := day.Mark{Time: now, Kind: day.KindAlert, Level: a.Level, Check: workspace.Clip(a.Check, maxAlertCheck), Message: workspace.Clip(a.Message, maxAlertMessage)}
	d.mu.Lock()
	defer d.mu.Unlock()
	h := d.agent(a.Agent, now)
	h.alerts = append(h.alerts, m)
	if len(h.alerts) > MaxDayAlerts {
		h.alerts = slices.Delete(h.alerts, 0, len(h.alerts)-MaxDayAlerts)
	}
	if now.After(h.last) {
		h.last = now
	}
}

// agent finds or makes agent's record, forgetting the days older than
// day.Keep, and the quietest agent when the book is full. d.mu is held.
func (d *Days) agent(name string, now time.Time) *heard {
	oldest := d.oldest(now).UnixNano()
	h, ok := d.agents[name]
	if !ok {
		if len(d.agents) >= d.max {
			var quiet string
			for n, o := range d.agents {
				if quiet == "" || o.last.Before(d.agents[quiet].last) {
					quiet = n
				}
			}
			delete(d.agents, quiet)
		}
		h = &heard{}
		d.agents[name] = h
	}
	// Keep the last mode before the oldest day: it is in force at its
	// midnight.
	// Most calls find nothing old: look further only when there is.
	if len(h.modes) > 1 && h.modes[1].t < oldest {
		i := firstFrom(h.modes, func(m modeAt) bool { return m.t >= oldest })
		h.modes = slices.Delete(h.modes, 0, i-1)
	}
	if len(h.alerts) > 0 && h.alerts[0].Time.UnixNano() < oldest {
		h.alerts = slices.Delete(h.alerts, 0, firstFrom(h.alerts, func(m day.Mark) bool { return m.Time.UnixNano() >= oldest }))
	}
	return h
}

// firstFrom is the index of the first element kept, len(s) when none is.
func firstFrom[T any](s []T, keep func(T) bool) int {
	if i := slices.IndexFunc(s, keep); i >= 0 {
		return i
	}
	return len(s)
}

// oldest is the midnight starting the oldest day kept.
func (d *Days) oldest(now time.Time) time.Time {
	n := now.In(d.loc)
	return time.Date(n.Year(), n.Month(), n.Day()-(day.Keep-1), 0, 0, 0, 0, d.loc)
}

// Span returns the agent's marks of [from, to), oldest first, and the
// mode in force at from ("" when none was heard before it); ok is false
// for an agent never heard.
func (d *Days) Span(agent string, from, to time.Time) (marks []day.Mark, prior string, ok bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	h, ok := d.agents[agent]
	if !ok {
		return nil, "", false
	}
	for _, m := range h.modes {
		t := time.Unix(0, m.t).In(d.loc)
		switch {
		case t.Before(from):
			prior = dayModes[m.mode]
		case t.Before(to):
			marks = append(marks, day.Mark{Time: t, Kind: day.KindMode, Mode: dayModes[m.mode]})
		}
	}
	for _, a := range h.alerts {
		if !a.Time.Before(from) && a.Time.Before(to) {
			marks = append(marks, a)
		}
	}
	slices.SortStableFunc(marks, func(a, b day.Mark) int { return a.Time.Compare(b.Time) })
	return marks, prior, true
}
