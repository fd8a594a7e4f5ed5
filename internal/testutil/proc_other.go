//go:build !unix

package testutil

import (
	"os"
	"os/exec"
	"time"
)

// Without process groups only the process itself can be ended.
func ownGroup(*exec.Cmd) {}

func endGroup(p *os.Process, _ time.Duration) { _ = p.Kill() }
