package daemon

import (
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/budget"
	"github.com/ai-heart/ai-heart/internal/cost"
	"github.com/ai-heart/ai-heart/internal/state"
)

// The state file is fsynced only when what a restart reads back from it
// changed: a pulse that moved only its clock, its ID, its notices or its
// counters is renamed into place unsynced.
func TestStateSyncedWhenARestartWouldReadSomethingNew(t *testing.T) {
	t0 := time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC)
	base := state.State{Version: 1, Agent: "a", PulseAt: t0, HeartbeatID: "20261127090000",
		Channels: state.Channels{"hooks": t0.Add(-time.Minute)},
		DailyCap: budget.CapState{Day: "2026-11-27", Used: 1, Limit: 5},
		Cost:     &cost.Summary{Totals: map[string]cost.Cell{"claude": {Runs: 2}}}}
	next := func(f func(*state.State)) state.State {
		s := base
		s.Channels = state.Channels{"hooks": base.Channels["hooks"]}
		s.Cost = &cost.Summary{Totals: map[string]cost.Cell{"claude": base.Cost.Totals["claude"]}}
		s.PulseAt, s.HeartbeatID = t0.Add(time.Second), "20261127090001"
		f(&s)
		return s
	}
	steps := []struct {
		name    string
		st      state.State
		durable bool
	}{
		{"the first write", base, true},
		{"a quiet pulse", next(func(s *state.State) {
			s.Notices = []string{"[warning] inactivity"}
			s.Counters.Pulses = 9
		}), false},
		{"the same channel time in another zone", next(func(s *state.State) {
			s.Channels["hooks"] = s.Channels["hooks"].In(time.FixedZone("JST", 9*3600))
		}), false},
		{"the hooks spoke", next(func(s *state.State) { s.Channels["hooks"] = t0 }), true},
		{"a quiet pulse after", next(func(s *state.State) { s.Channels["hooks"] = t0 }), false},
		{"a new channel", next(func(s *state.State) {
			s.Channels["hooks"] = t0
			s.Channels["telemetry"] = t0
		}), true},
		{"a wakeup took from the cap", next(func(s *state.State) {
			s.Channels = state.Channels{"hooks": t0, "telemetry": t0}
			s.DailyCap.Used = 2
		}), true},
		{"a run was booked", next(func(s *state.State) {
			s.Channels = state.Channels{"hooks": t0, "telemetry": t0}
			s.DailyCap.Used = 2
			s.Cost.Totals["claude"] = cost.Cell{Runs: 3}
		}), true},
	}
	var synced adopted
	for _, s := range steps {
		key := adoptedOf(s.st)
		if got := synced.differs(key); got != s.durable {
			t.Fatalf("%s: durable %v, want %v", s.name, got, s.durable)
		}
		if s.durable {
			synced = key
		}
	}
}
