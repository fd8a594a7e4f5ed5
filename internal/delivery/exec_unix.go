//go:build unix

package delivery

import (
	"os"
	"os/exec"
	"syscall"
)

// setProcessGroup starts the child as the leader of a new process group and
// makes a cancelled context kill the whole group.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		killGroup(cmd.Process)
		return nil
	}
}

// killGroup sends SIGKILL to p's process group; p leads it (Setpgid), so
// its pid is the group id. exec calls Cancel only while it has not yet
// reaped p, so the id cannot have been reused. A group already gone is not
// an error.
func killGroup(p *os.Process) {
	_ = syscall.Kill(-p.Pid, syscall.SIGKILL)
}
