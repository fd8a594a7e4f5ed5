//go:build !linux

package main

// undumpable is Linux's PR_SET_DUMPABLE: elsewhere the watchdog's
// environment is as readable to its own user as the system makes it.
func undumpable() error { return nil }
