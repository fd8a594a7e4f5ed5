// Package pause is the pause that stays paused: a file written atomically by
// `watchdog pause`, the HTTP API or the page, and read by the daemon on every
// pulse. Being a file, it survives a crash, a kill -9 and a restart until it
// is resumed or its Until passes.
//
// The pause is the operator's, so the file lives outside the agent's
// workspace (config state_dir): an agent that could write it could silence
// its own monitoring. LegacyFile, where it used to live, is never read.
package pause

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/ai-heart/ai-heart/internal/statefile"
)

// LegacyFile is where the pause lived before, inside the workspace. The
// daemon only notices that one exists, to tell the operator it is ignored.
const LegacyFile = "stats/pause.json"

// Pause is a pause in force. A zero Until lasts until resumed.
type Pause struct {
	Since  time.Time `json:"since"`
	Until  time.Time `json:"until,omitzero"`
	Reason string    `json:"reason,omitempty"`
	// By says who paused: the local user of `watchdog pause`, or "the
	// page". (Older versions paused as "the watchdog" on a refusal by the
	// model's service; now that is a hold, probed, never a pause.)
	By string `json:"by,omitempty"`
}

// Active reports whether the pause holds at now.
func (p *Pause) Active(now time.Time) bool {
	return p != nil && (p.Until.IsZero() || now.Before(p.Until))
}

// Read returns the pause in the file at path, or nil when there is none. A
// pause whose Until has passed is returned too: the caller decides (Active).
// An unreadable or damaged file is an error, and no pause: a file nobody can
// read must not hold monitoring off.
func Read(path string) (*Pause, error) {
	if path == "" {
		return nil, errors.New("read pause: no pause file configured")
	}
	var p Pause
	found, err := statefile.Read(path, &p)
	if err != nil {
		return nil, fmt.Errorf("read pause: %w", err)
	}
	if !found {
		return nil, nil
	}
	if p.Since.IsZero() {
		return nil, fmt.Errorf("read pause %s: no since", path)
	}
	return &p, nil
}

// Set writes a pause atomically, readable by its owner only, creating its
// folder (0700) when needed.
func Set(path string, p Pause) error {
	if !p.Until.IsZero() && !p.Until.After(p.Since) {
		return fmt.Errorf("pause until %s is not after now", p.Until.Format(time.RFC3339))
	}
	if path == "" {
		return errors.New("write pause: no pause file configured")
	}
	if err := statefile.Write(path, p); err != nil {
		return fmt.Errorf("write pause: %w", err)
	}
	return nil
}

// Clear removes the pause; clearing none is not an error.
func Clear(path string) error {
	err := os.Remove(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("resume: %w", err)
	}
	return nil
}

// resumedName is the operator's last resume, next to the pause file: it
// also ends a recovery that gave up.
const resumedName = "resumed.json"

type resumed struct {
	At time.Time `json:"at"`
}

// Resume removes the pause and stamps the resume, so a daemon whose
// recovery gave up wakes the agent again too.
func Resume(path string, now time.Time) error {
	if err := Clear(path); err != nil {
		return err
	}
	if err := statefile.Write(filepath.Join(filepath.Dir(path), resumedName), resumed{now.UTC()}); err != nil {
		return fmt.Errorf("resume: %w", err)
	}
	return nil
}

// ResumedAt is when the operator last resumed (zero: never, or unreadable).
func ResumedAt(path string) time.Time {
	if path == "" {
		return time.Time{}
	}
	var r resumed
	if _, err := statefile.Read(filepath.Join(filepath.Dir(path), resumedName), &r); err != nil {
		return time.Time{}
	}
	return r.At
}

// UntilText is when a timed pause ends, in loc: to the minute, or to the
// second for a pause shorter than a minute (a 15 s pause said to the minute
// reads as over, or as four times longer).
func (p *Pause) UntilText(loc *time.Location) string {
	if p.Until.Sub(p.Since) < time.Minute {
		return p.Until.In(loc).Format("2006-01-02 15:04:05 MST")
	}
	return p.Until.In(loc).Format("2006-01-02 15:04 MST")
}
