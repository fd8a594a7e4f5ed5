//go:build unix

package safeopen

import (
	"os"
	"syscall"
)

// Open flags that keep a planted FIFO from blocking open(2), a planted link
// from redirecting it, a terminal from becoming the watchdog's, and a
// folder's open from succeeding on anything but a folder.
const (
	oNonblock  = syscall.O_NONBLOCK
	oNoFollow  = syscall.O_NOFOLLOW
	oNoCTTY    = syscall.O_NOCTTY
	oDirectory = syscall.O_DIRECTORY
)

// blocking clears O_NONBLOCK once the file is known to be regular (or a
// folder), so reads and writes behave as on any file.
func blocking(f *os.File) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var serr error
	if err := rc.Control(func(fd uintptr) { serr = syscall.SetNonblock(int(fd), false) }); err != nil {
		return err
	}
	return serr
}
