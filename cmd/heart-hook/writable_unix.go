//go:build unix

package main

import "syscall"

// writable reports whether this process may write path (access(2), W_OK):
// the agent, of heart-hook's user, may too.
func writable(path string) bool { return syscall.Access(path, 2) == nil }
