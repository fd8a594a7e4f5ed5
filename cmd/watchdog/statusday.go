package main

import (
	"errors"
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

// todayStrip cuts today, from local midnight, into the strip's slots.
func todayStrip(ws *workspace.Workspace, loc *time.Location, now time.Time) ([]day.Slot, error) {
	_, slots, err := day.Load(ws, loc, now.In(loc).Format(time.DateOnly), stripSlots, stripWidth, now)
	return slots, err
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
	Today *stripJSON `json:"today,omitempty"`
	Error string     `json:"error,omitempty"`
}

type stripJSON struct {
	From        time.Time  `json:"from"`
	SlotMinutes int        `json:"slot_minutes"`
	Slots       []day.Slot `json:"slots"`
}

func agentJSON(name string, ws *workspace.Workspace, st state.State, err error, now time.Time) statusJSON {
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
	if slots, err := todayStrip(ws, ws.Loc, now); err == nil && len(slots) > 0 {
		j.Today = &stripJSON{From: slots[0].Start, SlotMinutes: int(stripWidth / time.Minute), Slots: slots}
	}
	return j
}
