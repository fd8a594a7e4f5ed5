//go:build !unix

package delivery

import (
	"os/exec"
	"time"
)

// setProcessGroup keeps exec's default: a cancelled context kills the child
// (process groups and SIGTERM are unix notions).
func setProcessGroup(cmd *exec.Cmd, grace time.Duration, exited <-chan struct{}) {}
