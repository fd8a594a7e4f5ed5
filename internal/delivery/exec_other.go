//go:build !unix

package delivery

import "os/exec"

// setProcessGroup keeps exec's default: a cancelled context kills the child
// (process groups are a unix notion).
func setProcessGroup(cmd *exec.Cmd) {}
