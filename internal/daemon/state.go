package daemon

import (
	"github.com/ai-heart/ai-heart/internal/state"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// The state file's schema is owned by package state; the daemon fills it.
type (
	State           = state.State
	CheckState      = state.CheckState
	DeepWork        = state.DeepWork
	Chambers        = state.Chambers
	PulseChamber    = state.PulseChamber
	ScheduleChamber = state.ScheduleChamber
	IdleChamber     = state.IdleChamber
	Counters        = state.Counters
	Recovery        = state.Recovery
)

// ReadState reads a workspace's state file.
func ReadState(ws *workspace.Workspace) (State, error) { return state.Read(ws) }

func writeState(ws *workspace.Workspace, s State) error { return state.Write(ws, s) }
