//go:build linux

package main

import "golang.org/x/sys/unix"

// undumpable makes the watchdog's process non-dumpable: /proc/<pid>/environ,
// mem, maps and fd become root's, so an agent running as the watchdog's own
// user can neither read the environment the watchdog started with (where a
// notify URL's ${NAME} secret was; unsetting it later does not change that
// file) nor attach a debugger. It also means no core dump.
func undumpable() error { return unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0) }
