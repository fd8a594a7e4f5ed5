package main

import (
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/day"
	"github.com/ai-heart/ai-heart/internal/state"
)

// The strip says where it starts: yesterday's half hour after now's, or
// midnight for a day asked by date.
func TestStripSpan(t *testing.T) {
	loc := time.FixedZone("JST", 9*3600)
	now := time.Date(2026, 11, 25, 16, 10, 0, 0, loc)
	from, _ := day.Start(loc, "", stripSlots, stripWidth, now)
	slots := day.Strip(nil, "", from, stripSlots, stripWidth, now)
	if got := stripSpan(slots, "", now); got != "from 16:30 yesterday to now, a character per 30 min" {
		t.Errorf("last 24h: %q", got)
	}
	if got := stripSpan(slots, "2026-11-24", now); got != "00:00-24:00, a character per 30 min" {
		t.Errorf("a day: %q", got)
	}
	if got := stripLabel(""); got != "last 24h" {
		t.Errorf("label %q", got)
	}
}

func TestThemeRow(t *testing.T) {
	for _, c := range []struct {
		th   *state.Theme
		want string
	}{
		{nil, "none yet"},
		{&state.Theme{StartID: "20261125090000", Dir: "tides", Name: "Why two tides?"}, "Why two tides? (artifacts/20261125090000_tides)"},
		{&state.Theme{Dir: "tides", Ended: true}, "none (tides ended)"},
	} {
		if got := themeRow(c.th); got != c.want {
			t.Errorf("themeRow(%+v) = %q, want %q", c.th, got, c.want)
		}
	}
}
