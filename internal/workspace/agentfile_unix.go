//go:build unix

package workspace

import "syscall"

// Open flags that keep a planted FIFO from blocking open(2), and make a
// folder's open fail on anything but a folder.
const (
	oNonblock  = syscall.O_NONBLOCK
	oDirectory = syscall.O_DIRECTORY
)
