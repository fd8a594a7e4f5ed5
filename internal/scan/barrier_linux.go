package scan

import (
	"errors"
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// barrierEvent makes inotify queue an event for the file abs: it sets the
// file's times (IN_ATTRIB), making the file the first time (IN_CREATE).
// A touch makes and frees no inode, as creating and removing a file at
// every pulse did; the link itself is touched, never what an agent may
// have pointed it at. sync's two names take turns, so two touches never
// queue the same event (inotify merges an event into an identical one
// still unread). made reports that abs was created and stays.
func barrierEvent(abs string) (made bool, err error) {
	ts := unix.NsecToTimespec(time.Now().UnixNano())
	err = unix.UtimesNanoAt(unix.AT_FDCWD, abs, []unix.Timespec{ts, ts}, unix.AT_SYMLINK_NOFOLLOW)
	if !errors.Is(err, unix.ENOENT) {
		return false, err
	}
	f, err := os.OpenFile(abs, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return false, err
	}
	return true, f.Close()
}
