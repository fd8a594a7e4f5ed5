package state

import (
	"errors"
	"fmt"
	"path/filepath"
)

// Holder is a process that holds an agent's lock, as the kernel names it.
type Holder struct {
	PID     int    // in this process's PID namespace
	Program string // its command name (/proc/PID/comm); "" when unreadable
}

func (h Holder) String() string {
	p := h.Program
	if p == "" {
		p = "program unknown"
	}
	return fmt.Sprintf("pid %d (%s)", h.PID, p)
}

// ErrLockTaken reports that an agent's lock is held by a process that is
// not a watchdog: on the same user, an agent can take the lock first.
var ErrLockTaken = errors.New("the watchdog's lock is held by a process that is not a watchdog")

// Taken says who keeps the lock in the state folder dir from a new
// watchdog: nil when nobody holds it; ErrLocked, with the pid, when a
// watchdog does; ErrLockTaken, with the pid and the program, when another
// process does. Where the kernel does not name holders, any holder is
// ErrLocked.
func Taken(dir string) error {
	if !Held(dir) {
		return nil
	}
	path := filepath.Join(dir, LockFile)
	hs, known := holders(path)
	if !known {
		return fmt.Errorf("lock %s: %w", path, ErrLocked)
	}
	for _, h := range hs {
		if h.watchdog() {
			return fmt.Errorf("lock %s: %w (%s)", path, ErrLocked, h)
		}
	}
	if len(hs) == 0 {
		return fmt.Errorf("lock %s: %w: a process this one cannot see holds it", path, ErrLockTaken)
	}
	return fmt.Errorf("lock %s: %w: %s holds it; stop that process (an agent of the watchdog's user can take the lock)", path, ErrLockTaken, hs[0])
}

// heldBy says why the lock in dir is not held by the watchdog with pid, as
// far as the kernel tells: "" when it is (or when the kernel names no
// holders and the lock is held).
func heldBy(dir string, pid int) string {
	path := filepath.Join(dir, LockFile)
	if !Held(dir) {
		return "no watchdog holds " + path + " (the state file was not written by a running watchdog)"
	}
	hs, known := holders(path)
	if !known {
		return ""
	}
	for _, h := range hs {
		if h.PID == pid && h.watchdog() {
			return ""
		}
	}
	if len(hs) == 0 {
		return "a process this one cannot see holds " + path
	}
	for _, h := range hs {
		if !h.watchdog() {
			return fmt.Sprintf("%s is held by %s, which is not a watchdog (the state file is forged)", path, h)
		}
	}
	return fmt.Sprintf("%s is held by %s, not by the state file's pid %d (the state file is forged)", path, hs[0], pid)
}
