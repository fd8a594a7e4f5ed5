//go:build !unix

package delivery

import (
	"os"
	"os/exec"
	"time"
)

// signalOf: without unix signals, no run is ended by one.
func signalOf(*os.ProcessState) string { return "" }

// setProcessGroup keeps exec's default: a cancelled context kills the child
// (process groups and SIGTERM are unix notions).
func setProcessGroup(cmd *exec.Cmd, grace time.Duration, exited <-chan struct{}) {}
