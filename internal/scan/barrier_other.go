//go:build !linux

package scan

import "os"

// barrierEvent makes the watcher queue an event for the file abs: it
// creates and removes it (other systems' watchers need not report a
// file's times).
func barrierEvent(abs string) (made bool, err error) {
	f, err := os.OpenFile(abs, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return false, err
	}
	f.Close()
	return false, os.Remove(abs)
}
