//go:build unix

package hook

import "syscall"

// noFollow and nonBlock keep a spool the agent can write from redirecting
// a write through a link or hanging on a FIFO.
const (
	noFollow = syscall.O_NOFOLLOW
	nonBlock = syscall.O_NONBLOCK
)
