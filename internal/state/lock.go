package state

import (
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"github.com/gofrs/flock"

	"github.com/ai-heart/ai-heart/internal/safeopen"
	"github.com/ai-heart/ai-heart/internal/statefile"
)

// LockFile is held (flock, exclusive) by the watchdog that supervises an
// agent, for as long as it runs, in the agent's state folder: the agent can
// neither take it first (and keep the watchdog from starting) nor hold it
// to pass for a running watchdog. The state file alone proves nothing.
const LockFile = "watchdog.lock"

// ErrLocked reports that another watchdog holds an agent's lock.
var ErrLocked = errors.New("another watchdog is running on this workspace")

// Lock takes the lock in the agent's state folder dir (created 0700 when
// missing), or fails with ErrLocked.
func Lock(dir string) (*flock.Flock, error) {
	if err := statefile.EnsureDir(dir); err != nil {
		return nil, err
	}
	l := flock.New(filepath.Join(dir, LockFile), flock.SetPermissions(statefile.FileMode), flock.SetFlag(safeopen.LockFlag))
	ok, err := l.TryLock()
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", l.Path(), err)
	}
	if !ok {
		if err := Taken(dir); err != nil {
			return nil, err
		}
		return nil, fmt.Errorf("lock %s: %w", l.Path(), ErrLocked)
	}
	return l, nil
}

// Held reports whether a watchdog holds the lock in the state folder dir now.
func Held(dir string) bool {
	if dir == "" {
		return false
	}
	l := flock.New(filepath.Join(dir, LockFile), flock.SetPermissions(statefile.FileMode), flock.SetFlag(safeopen.LockFlag))
	ok, err := l.TryRLock()
	if err != nil {
		return false
	}
	if ok {
		_ = l.Unlock()
		return false
	}
	return true
}

// Fresh reports whether the state's times are those of a watchdog that
// pulses now: its last pulse is recent and not in the future, its start not
// after its pulse. why says what failed. It is all the agent's tools can ask
// of the copy published in the workspace, which the agent can write.
func (s State) Fresh(now time.Time) (ok bool, why string) {
	switch iv := s.PulseInterval.D(); {
	case !s.Running(now):
		return false, fmt.Sprintf("last pulse %s", s.PulseAt.Format(time.RFC3339))
	case s.PulseAt.After(now.Add(iv + time.Second)), s.StartedAt.After(s.PulseAt):
		return false, "the state file's times are impossible (written by hand?)"
	}
	return true, ""
}

// Live reports whether the state, read from the agent's state folder dir,
// was written by a watchdog that runs now: its times are Fresh, and the
// folder's lock is held by the process the state names, which runs the
// watchdog's program (as far as the kernel names lock holders: on Linux).
// A lock held by flock or python beside a forged state is no watchdog.
// why says what failed.
func (s State) Live(dir string, now time.Time) (ok bool, why string) {
	if ok, why := s.Fresh(now); !ok {
		return false, why
	}
	if why := heldBy(dir, s.PID); why != "" {
		return false, why
	}
	return true, ""
}
