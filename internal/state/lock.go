package state

import (
	"errors"
	"fmt"
	"time"

	"github.com/gofrs/flock"

	"github.com/ai-heart/ai-heart/internal/workspace"
)

// LockFile is held (flock, exclusive) by the watchdog that supervises the
// workspace, for as long as it runs. The state file alone proves nothing:
// the agent can write one that says "running, pid 1, since 2099".
const LockFile = "stats/watchdog.lock"

// ErrLocked reports that another watchdog holds a workspace's lock.
var ErrLocked = errors.New("another watchdog is running on this workspace")

// Lock takes the workspace's watchdog lock, or fails with ErrLocked.
func Lock(ws *workspace.Workspace) (*flock.Flock, error) {
	l := flock.New(ws.Path(LockFile))
	ok, err := l.TryLock()
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", LockFile, err)
	}
	if !ok {
		return nil, fmt.Errorf("lock %s: %w", LockFile, ErrLocked)
	}
	return l, nil
}

// Held reports whether a watchdog holds the workspace's lock now.
func Held(ws *workspace.Workspace) bool {
	l := flock.New(ws.Path(LockFile))
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

// Live reports whether the state was written by a watchdog that runs now:
// its last pulse is recent and not in the future, its start not after its
// pulse, and a watchdog holds the workspace's lock. why says what failed.
func (s State) Live(ws *workspace.Workspace, now time.Time) (ok bool, why string) {
	switch iv := s.PulseInterval.D(); {
	case !s.Running(now):
		return false, fmt.Sprintf("last pulse %s", s.PulseAt.Format(time.RFC3339))
	case s.PulseAt.After(now.Add(iv + time.Second)), s.StartedAt.After(s.PulseAt):
		return false, "the state file's times are impossible (written by hand?)"
	case !Held(ws):
		return false, "no watchdog holds " + LockFile + " (the state file was not written by a running watchdog)"
	}
	return true, ""
}
