//go:build unix

package delivery

import (
	"os"
	"os/exec"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// signalOf names the signal that ended a process ("SIGKILL"), if one did.
func signalOf(ps *os.ProcessState) string {
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return unix.SignalName(ws.Signal())
	}
	return ""
}

// setProcessGroup starts the child as the leader of a new process group and
// makes a cancelled context end the whole group: SIGTERM at once, SIGKILL
// after grace unless the run has ended (exited is closed) by then. A group
// already gone is not an error.
//
// The leader's pid is the group id (Setpgid). exec calls Cancel only while it
// has not yet reaped the leader, and Linux never hands out a pid that is
// still some group's id, so the SIGKILL reaches only this run's processes.
func setProcessGroup(cmd *exec.Cmd, grace time.Duration, exited <-chan struct{}) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	parentDeath(cmd.SysProcAttr)
	cmd.Cancel = func() error {
		pgid := cmd.Process.Pid
		_ = syscall.Kill(-pgid, syscall.SIGTERM)
		go func() {
			t := time.NewTimer(grace)
			defer t.Stop()
			select {
			case <-exited:
			case <-t.C:
				_ = syscall.Kill(-pgid, syscall.SIGKILL)
			}
		}()
		return nil
	}
}
