package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/ai-heart/ai-heart/internal/day"
	"github.com/ai-heart/ai-heart/internal/state"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// The day strip `watchdog status` draws: the last 24 hours (or a local
// day from its midnight), a character per half hour.
const (
	stripSlots = 48
	stripWidth = 30 * time.Minute
)

// dayStrip cuts the local day date, from its midnight, into the strip's
// slots; "" is the last 24 hours, ending with the slot holding now. dir is
// the agent's state folder, where the day files are.
func dayStrip(dir string, loc *time.Location, date string, now time.Time) ([]day.Slot, error) {
	from, err := day.Start(loc, date, stripSlots, stripWidth, now)
	if err != nil {
		return nil, err
	}
	_, slots, err := day.Load(dir, loc, from, stripSlots, stripWidth, now)
	return slots, err
}

// stripLabel names a strip in status's rows and legend.
func stripLabel(date string) string {
	if date == "" {
		return "last 24h"
	}
	return date
}

// stripSpan says where a strip's slots start, after the strip.
func stripSpan(slots []day.Slot, date string, now time.Time) string {
	if date != "" || len(slots) == 0 {
		return "00:00-24:00, a character per 30 min"
	}
	from := slots[0].Start
	when := "yesterday"
	if from.Format(time.DateOnly) == now.In(from.Location()).Format(time.DateOnly) {
		when = "today"
	}
	return fmt.Sprintf("from %s %s to now, a character per 30 min", from.Format("15:04"), when)
}

// checkDay accepts --day: one of the days kept, today included.
func checkDay(date string, loc *time.Location, now time.Time) error {
	d, err := time.ParseInLocation(time.DateOnly, date, loc)
	if err != nil {
		return fmt.Errorf("--day %q: want YYYY-MM-DD", date)
	}
	today := now.In(loc).Format(time.DateOnly)
	oldest := now.In(loc).AddDate(0, 0, -(day.Keep - 1)).Format(time.DateOnly)
	switch f := d.Format(time.DateOnly); {
	case f > today:
		return fmt.Errorf("--day %s is after today (%s)", f, today)
	case f < oldest:
		return fmt.Errorf("--day %s: only the last %d days are kept (from %s)", f, day.Keep, oldest)
	}
	return nil
}

// statusJSON is one agent in `watchdog status --json`: a stable shape for
// scripts (docs/watchdog.md documents it).
type statusJSON struct {
	Agent     string `json:"agent"`
	Workspace string `json:"workspace"`
	// Running: a watchdog pulses there now (its lock held, its times
	// possible); Why says why not.
	Running bool   `json:"running"`
	Why     string `json:"why,omitempty"`
	// Blocked is why no wakeup can reach the agent now (as of the
	// command, not the last pulse); state's next_wakeup is absent while it
	// lasts.
	Blocked *state.Blocked `json:"blocked,omitempty"`
	// State is the state file as the last pulse wrote it (absent when the
	// watchdog never ran there).
	State *state.State `json:"state,omitempty"`
	// Numbers are the field's numbers (day.Numbers) today and over the
	// last 7 days, from the agent's day files.
	Numbers *day.Field `json:"numbers,omitempty"`
	// Last24h is the strip of the last 24 hours, ending with the slot
	// holding now; Today is today's from local midnight. With --day there
	// is Day instead, the strip of that day. A slot per 30 minutes.
	Last24h *stripJSON `json:"last_24h,omitempty"`
	Today   *stripJSON `json:"today,omitempty"`
	Day     *stripJSON `json:"day,omitempty"`
	Error   string     `json:"error,omitempty"`
}

type stripJSON struct {
	From        time.Time  `json:"from"`
	SlotMinutes int        `json:"slot_minutes"`
	Slots       []day.Slot `json:"slots"`
}

func agentJSON(name string, ws *workspace.Workspace, dir string, st state.State, err error, date string, now time.Time) statusJSON {
	j := statusJSON{Agent: name, Workspace: ws.Root}
	switch {
	case errors.Is(err, os.ErrNotExist):
		j.Why = "never ran here (no " + filepath.Join(dir, state.File) + ")"
		return j
	case err != nil:
		j.Why, j.Error = "state file unreadable", err.Error()
		return j
	}
	j.State = &st
	j.Running, j.Why = st.Live(dir, now)
	if j.Running {
		j.Blocked = state.Blocking(st, now, ws.Loc)
	}
	if sc := &st.Chambers.Schedule; j.Blocked != nil {
		sc.Blocked, sc.NextWakeup, sc.NextSource = j.Blocked, nil, ""
	}
	strip := func(date string) *stripJSON {
		slots, err := dayStrip(dir, ws.Loc, date, now)
		if err != nil || len(slots) == 0 {
			return nil
		}
		return &stripJSON{From: slots[0].Start, SlotMinutes: int(stripWidth / time.Minute), Slots: slots}
	}
	if f, err := day.LoadField(dir, ws.Loc, now); err == nil {
		j.Numbers = &f
	}
	if date != "" {
		j.Day = strip(date)
	} else {
		j.Last24h, j.Today = strip(""), strip(now.In(ws.Loc).Format(time.DateOnly))
	}
	return j
}
