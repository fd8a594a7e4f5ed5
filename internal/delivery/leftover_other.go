//go:build !linux

package delivery

import (
	"os"
	"syscall"
	"time"
)

// Without /proc a run cannot be told from a later process given its pid:
// nothing is recorded, and nothing is ended.
func procStart(int) (uint64, string, bool) { return 0, "", false }

// EndLeftover removes the record; see the Linux version.
func EndLeftover(path string, _ time.Duration) (int, error) {
	_ = os.Remove(path)
	return 0, nil
}

func parentDeath(*syscall.SysProcAttr) {}
