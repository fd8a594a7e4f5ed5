package main

import (
	"context"
	"fmt"
	"io"
)

// runMigrate is a placeholder until the migrate command lands.
func runMigrate(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "watchdog migrate: not implemented yet")
	return 2
}
