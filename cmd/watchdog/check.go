package main

import (
	"context"
	"fmt"
	"io"
)

// runCheck is a placeholder until the check command lands.
func runCheck(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "watchdog check: not implemented yet")
	return 2
}
