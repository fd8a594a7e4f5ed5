// Package pause is the pause that stays paused: a file in the workspace's
// stats/, written atomically by `watchdog pause`, the HTTP API or the page,
// and read by the daemon on every pulse. Being a file, it survives a crash,
// a kill -9 and a restart until it is resumed or its Until passes.
package pause

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"

	"github.com/ai-heart/ai-heart/internal/workspace"
)

// File is the pause file, relative to the workspace.
const File = "stats/pause.json"

// Pause is a pause in force. A zero Until lasts until resumed.
type Pause struct {
	Since  time.Time `json:"since"`
	Until  time.Time `json:"until,omitzero"`
	Reason string    `json:"reason,omitempty"`
}

// Active reports whether the pause holds at now.
func (p *Pause) Active(now time.Time) bool {
	return p != nil && (p.Until.IsZero() || now.Before(p.Until))
}

// Read returns the workspace's pause, or nil when there is none. A pause
// whose Until has passed is returned too: the caller decides (Active).
func Read(ws *workspace.Workspace) (*Pause, error) {
	b, err := workspace.ReadAgentFile(ws.Path(File), workspace.MaxSmallFile)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read pause: %w", err)
	}
	var p Pause
	if err := json.Unmarshal(b, &p); err != nil {
		// A damaged pause file still means someone asked for a pause:
		// stay paused (safe side) until it is resumed.
		return &Pause{Reason: "unreadable " + File + ": " + err.Error()}, nil
	}
	return &p, nil
}

// Set writes a pause atomically.
func Set(ws *workspace.Workspace, p Pause) error {
	if !p.Until.IsZero() && !p.Until.After(p.Since) {
		return fmt.Errorf("pause until %s is not after now", p.Until.Format(time.RFC3339))
	}
	b, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		return fmt.Errorf("write pause: %w", err)
	}
	return ws.WriteFile(File, append(b, '\n'))
}

// Clear removes the pause; clearing none is not an error.
func Clear(ws *workspace.Workspace) error {
	err := os.Remove(ws.Path(File))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("resume: %w", err)
	}
	return nil
}
