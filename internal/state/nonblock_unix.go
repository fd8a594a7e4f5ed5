//go:build unix

package state

import "syscall"

// oNonblock keeps open(2) from waiting on a FIFO planted in place of a file.
const oNonblock = syscall.O_NONBLOCK
