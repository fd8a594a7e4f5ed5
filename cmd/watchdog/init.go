package main

import (
	"context"
	"fmt"
	"io"
)

// runInit is a placeholder until the init command lands.
func runInit(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "watchdog init: not implemented yet")
	return 2
}
