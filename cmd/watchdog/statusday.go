package main

import (
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/ai-heart/ai-heart/internal/day"
	"github.com/ai-heart/ai-heart/internal/state"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// The day strip `watchdog status` draws: today from local midnight, a
// character per half hour.
const (
	stripSlots = 48
	stripWidth = 30 * time.Minute
)

// dayStrip cuts the local day date ("" = today), from its midnight, into
// the strip's slots.
func dayStrip(ws *workspace.Workspace, loc *time.Location, date string, now time.Time) ([]day.Slot, error) {
	if date == "" {
		date = now.In(loc).Format(time.DateOnly)
	}
	_, slots, err := day.Load(ws, loc, date, stripSlots, stripWidth, now)
	return slots, err
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
// scripts (README documents it).
type statusJSON struct {
	Agent     string `json:"agent"`
	Workspace string `json:"workspace"`
	// Running: a watchdog pulses there now (its lock held, its times
	// possible); Why says why not.
	Running bool   `json:"running"`
	Why     string `json:"why,omitempty"`
	// State is the state file as the last pulse wrote it (absent when the
	// watchdog never ran there).
	State *state.State `json:"state,omitempty"`
	// Today is the day strip: from local midnight, a slot per 30 minutes.
	// With --day it is Day instead, the strip of that day.
	Today *stripJSON `json:"today,omitempty"`
	Day   *stripJSON `json:"day,omitempty"`
	Error string     `json:"error,omitempty"`
}

type stripJSON struct {
	From        time.Time  `json:"from"`
	SlotMinutes int        `json:"slot_minutes"`
	Slots       []day.Slot `json:"slots"`
}

func agentJSON(name string, ws *workspace.Workspace, st state.State, err error, date string, now time.Time) statusJSON {
	j := statusJSON{Agent: name, Workspace: ws.Root}
	switch {
	case errors.Is(err, os.ErrNotExist):
		j.Why = "never ran here (no " + workspace.StateFile + ")"
		return j
	case err != nil:
		j.Why, j.Error = "state file unreadable", err.Error()
		return j
	}
	j.State = &st
	j.Running, j.Why = st.Live(ws, now)
	if slots, err := dayStrip(ws, ws.Loc, date, now); err == nil && len(slots) > 0 {
		s := &stripJSON{From: slots[0].Start, SlotMinutes: int(stripWidth / time.Minute), Slots: slots}
		if date == "" {
			j.Today = s
		} else {
			j.Day = s
		}
	}
	return j
}
