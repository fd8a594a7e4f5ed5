package cost

import (
	"slices"
	"sort"
	"time"
)

// What the ledger says of today, yesterday, the last days and all its
// time: read under its lock, never written.

// Summary sums the ledger as of now.
func (l *Ledger) Summary(now time.Time) Summary {
	l.mu.Lock()
	defer l.mu.Unlock()
	s := Summary{
		Today:     l.period(now, 0, 0),
		Yesterday: l.period(now, -1, -1),
		Last7Days: l.period(now, -6, 0),
		Totals:    make(map[string]Cell, len(l.b.Totals)),
	}
	for k, v := range l.b.Totals {
		s.Totals[k] = v
	}
	if d := l.b.Days[dayOf(now, l.loc)]; d != nil {
		s.TodayCorrupt = d.Corrupt
	}
	for k, d := range l.b.Days {
		if k >= s.Last7Days.From && k <= s.Last7Days.To {
			for _, m := range d.UnpricedModels {
				if !slices.Contains(s.UnpricedModels, m) && len(s.UnpricedModels) < maxUnpriced {
					s.UnpricedModels = append(s.UnpricedModels, m)
				}
			}
		}
	}
	slices.Sort(s.UnpricedModels)
	return s
}

// Today returns a copy of now's local day.
func (l *Ledger) Today(now time.Time) Day {
	l.mu.Lock()
	defer l.mu.Unlock()
	d := Day{By: Split{}}
	if cur := l.b.Days[dayOf(now, l.loc)]; cur != nil {
		d = *cur
		d.By = Split{}
		for src, byOut := range cur.By {
			for o, c := range byOut {
				d.By.add(src, o, c)
			}
		}
	}
	return d
}

// period sums the days from now+first to now+last (in days). Called with l.mu held.
func (l *Ledger) period(now time.Time, first, last int) Period {
	p := Period{From: dayOf(shiftDays(now, l.loc, first), l.loc), To: dayOf(shiftDays(now, l.loc, last), l.loc), By: Split{}}
	keys := make([]string, 0, len(l.b.Days))
	for k := range l.b.Days {
		if k >= p.From && k <= p.To {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys) // a fixed order of float sums
	for _, k := range keys {
		for src, byOut := range l.b.Days[k].By {
			for o, c := range byOut {
				p.By.add(src, o, c)
			}
		}
	}
	return p
}

// dayOf is the local calendar date of t in loc.
func dayOf(t time.Time, loc *time.Location) string { return t.In(loc).Format(time.DateOnly) }

// shiftDays moves t by n calendar days in loc, at noon: a DST change (23 or
// 25 hour days) never lands it on the wrong date.
func shiftDays(t time.Time, loc *time.Location, n int) time.Time {
	y, m, d := t.In(loc).Date()
	return time.Date(y, m, d+n, 12, 0, 0, 0, loc)
}
