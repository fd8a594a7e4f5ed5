//go:build windows

package workspace

import (
	"os"

	"golang.org/x/sys/windows"
)

// lockFile takes f's exclusive lock, waiting for it.
func lockFile(f *os.File) error {
	return windows.LockFileEx(windows.Handle(f.Fd()), windows.LOCKFILE_EXCLUSIVE_LOCK, 0, 1, 0, &windows.Overlapped{})
}
