package main

import (
	"context"
	"fmt"
	"io"
)

// runStatus is a placeholder until the status command lands.
func runStatus(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "watchdog status: not implemented yet")
	return 2
}
