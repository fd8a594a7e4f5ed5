package main

import (
	"context"
	"fmt"
	"io"
)

// runRun is a placeholder until the run command lands.
func runRun(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "watchdog run: not implemented yet")
	return 2
}
