package config

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// HoursRange is one active-hours range, "08:00-23:00", as minutes after
// local midnight. Start after End wraps midnight ("22:00-06:00").
type HoursRange struct{ Start, End int }

// ParseHours reads "HH:MM-HH:MM" (End may be 24:00).
func ParseHours(s string) (HoursRange, error) {
	a, b, ok := strings.Cut(strings.TrimSpace(s), "-")
	if !ok {
		return HoursRange{}, fmt.Errorf("%q: want HH:MM-HH:MM, like 08:00-23:00", s)
	}
	start, err := clock(a, false)
	if err != nil {
		return HoursRange{}, fmt.Errorf("%q: %v", s, err)
	}
	end, err := clock(b, true)
	if err != nil {
		return HoursRange{}, fmt.Errorf("%q: %v", s, err)
	}
	if start == end || (start == 0 && end == 24*60) {
		return HoursRange{}, fmt.Errorf("%q: an empty or whole-day range; leave active_hours out for all day", s)
	}
	return HoursRange{start, end}, nil
}

func clock(s string, end bool) (int, error) {
	h, m, ok := strings.Cut(strings.TrimSpace(s), ":")
	hh, err1 := strconv.Atoi(h)
	mm, err2 := strconv.Atoi(m)
	if !ok || err1 != nil || err2 != nil || len(m) != 2 || mm < 0 || mm > 59 || hh < 0 || hh > 24 || (hh == 24 && (mm != 0 || !end)) {
		return 0, fmt.Errorf("%q is not a time of day HH:MM", s)
	}
	return hh*60 + mm, nil
}

// Contains reports whether the wall-clock time of t (in its own location)
// falls in the range. Wall-clock minutes make it DST-safe: "08:00" is eight
// on the clock on a 23- or 25-hour day too.
func (r HoursRange) Contains(t time.Time) bool {
	m := t.Hour()*60 + t.Minute()
	if r.Start < r.End {
		return m >= r.Start && m < r.End
	}
	return m >= r.Start || m < r.End // wraps midnight
}

// Active reports whether t (in the configured timezone) is inside the
// schedule's active hours; no active_hours means always.
func (s Schedule) Active(t time.Time) bool {
	if len(s.ActiveHours) == 0 {
		return true
	}
	for _, h := range s.ActiveHours {
		if r, err := ParseHours(h); err == nil && r.Contains(t) {
			return true
		}
	}
	return false
}
