package day

import (
	"fmt"
	"strings"
	"time"
)

// Slot is one stretch of the strip.
type Slot struct {
	Start time.Time `json:"start"`
	// Mode is the mode the agent spent most of the slot in ("" before the
	// first mark, or in the future).
	Mode string `json:"mode,omitempty"`
	// Worst is the highest alert level raised in the slot ("" for none).
	Worst   string `json:"worst,omitempty"`
	Wakeups int    `json:"wakeups,omitempty"`
	// Sources counts the delivered wakeups by source (schedule, idle,
	// recovery, feedback, extra).
	Sources map[string]int `json:"sources,omitempty"`
	Ghosts  int            `json:"ghosts,omitempty"`
	Future  bool           `json:"future,omitempty"`
}

var levelRank = map[string]int{"ok": 0, "info": 1, "warning": 2, "error": 3}

// Strip cuts [from, from+n*width) into n slots and fills them from the
// marks: the mode in force longest in each (waiting for you whenever it
// was, however short: a person was needed), the worst alert (not the
// pause's own notice: the mode shows it), the wakeups and ghosts. prior is
// the mode in force at from (from the day before); slots after now are
// Future.
func Strip(marks []Mark, prior string, from time.Time, n int, width time.Duration, now time.Time) []Slot {
	slots := make([]Slot, n)
	spent := make([]map[string]time.Duration, n)
	for i := range slots {
		slots[i].Start = from.Add(time.Duration(i) * width)
		slots[i].Future = !slots[i].Start.Before(now)
		spent[i] = map[string]time.Duration{}
	}
	end := from.Add(time.Duration(n) * width)
	// Spread each mode over the time until the next mode mark (or now).
	mode, at := prior, from
	flush := func(until time.Time) {
		if until.After(now) {
			until = now
		}
		for t := at; t.Before(until) && t.Before(end); {
			i := int(t.Sub(from) / width)
			next := from.Add(time.Duration(i+1) * width)
			if until.Before(next) {
				next = until
			}
			if i >= 0 && mode != "" {
				spent[i][mode] += next.Sub(t)
			}
			t = next
		}
	}
	for _, m := range marks {
		if m.Time.Before(from) || !m.Time.Before(end) {
			if m.Kind == KindMode && m.Time.Before(from) {
				mode = m.Mode
			}
			continue
		}
		i := int(m.Time.Sub(from) / width)
		switch m.Kind {
		case KindMode:
			flush(m.Time)
			mode, at = m.Mode, m.Time
		case KindAlert:
			if m.Check != "pause" && levelRank[m.Level] > levelRank[slots[i].Worst] {
				slots[i].Worst = m.Level
			}
		case KindWakeup:
			switch m.Outcome {
			case "delivered":
				slots[i].Wakeups++
				if m.Source != "" {
					if slots[i].Sources == nil {
						slots[i].Sources = map[string]int{}
					}
					slots[i].Sources[m.Source]++
				}
			case "ghost":
				slots[i].Ghosts++
			}
		}
	}
	flush(end)
	for i := range slots {
		if spent[i][WaitingForYou] > 0 {
			slots[i].Mode = WaitingForYou
			continue
		}
		var best time.Duration
		for md, d := range spent[i] {
			if d > best || (d == best && md < slots[i].Mode) {
				slots[i].Mode, best = md, d
			}
		}
	}
	return slots
}

// Text draws slots as one line of text, a character each: █ working,
// ▒ waiting for you, · waiting, ‖ paused, ~ outside active hours, blank
// where nothing is known (before the first mark, no watchdog, the future);
// an error alert in the slot shows as !, a warning as ?. Legend says so.
func Text(slots []Slot) string {
	var b strings.Builder
	for _, s := range slots {
		switch {
		case s.Worst == "error":
			b.WriteRune('!')
		case s.Worst == "warning":
			b.WriteRune('?')
		case s.Future:
			b.WriteRune(' ')
		default:
			b.WriteRune(modeRune(s.Mode))
		}
	}
	return b.String()
}

func modeRune(mode string) rune {
	switch mode {
	case Working:
		return '█'
	case WaitingForYou:
		return '▒'
	case Waiting:
		return '·'
	case Paused:
		return '‖'
	case Outside:
		return '~'
	}
	return ' '
}

// Legend explains Text's characters.
const Legend = "█ working  · waiting  ▒ waiting for you  ‖ paused  ~ outside active hours  ! error  ? warning  (blank: no watchdog, or to come)"

// Start is where a strip of n slots of width starts: the midnight of the
// local day date ("2006-01-02", in loc), or for date "" the slot n-1 before
// the one holding now (the last 24 hours, for 96 quarter hours; slots
// aligned on local midnight).
func Start(loc *time.Location, date string, n int, width time.Duration, now time.Time) (time.Time, error) {
	if date != "" {
		midnight, err := time.ParseInLocation(time.DateOnly, date, loc)
		if err != nil {
			return time.Time{}, fmt.Errorf("day %q: want YYYY-MM-DD", date)
		}
		return midnight, nil
	}
	l := now.In(loc)
	midnight := time.Date(l.Year(), l.Month(), l.Day(), 0, 0, 0, 0, loc)
	end := midnight.Add((now.Sub(midnight)/width + 1) * width)
	return end.Add(-time.Duration(n) * width), nil
}

// Load reads the marks of the n slots of width from from and cuts them
// into the strip; the mode in force at from is the last one before it.
func Load(dir string, loc *time.Location, from time.Time, n int, width time.Duration, now time.Time) ([]Mark, []Slot, error) {
	marks, prior, err := Span(dir, loc, from, from.Add(time.Duration(n)*width))
	if err != nil {
		return nil, nil, err
	}
	return marks, Strip(marks, prior, from, n, width, now), nil
}

// Span reads the marks of [from, to) from the day files in the state folder
// dir that hold them,
// and the mode in force at from (the last one before it, looking back to
// the day before from's).
func Span(dir string, loc *time.Location, from, to time.Time) (marks []Mark, prior string, err error) {
	f := from.In(loc)
	for d := time.Date(f.Year(), f.Month(), f.Day()-1, 0, 0, 0, 0, loc); d.Before(to); d = d.AddDate(0, 0, 1) {
		ms, err := Read(dir, d.Format(time.DateOnly))
		if err != nil {
			return nil, "", err
		}
		for _, m := range ms {
			switch {
			case m.Time.Before(from):
				if m.Kind == KindMode {
					prior = m.Mode
				}
			case m.Time.Before(to):
				marks = append(marks, m)
			}
		}
	}
	return marks, prior, nil
}
