//go:build unix

package testutil

import (
	"os"
	"os/exec"
	"syscall"
	"time"
)

func ownGroup(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
}

// endGroup ends the group that p leads. Start reaps the leader as soon as
// it exits, so a group still there has a live member.
func endGroup(p *os.Process, grace time.Duration) { endGroups([]int{p.Pid}, grace) }

// endGroups sends SIGTERM to each process group, then SIGKILL to each still
// there after grace. A group already gone is skipped. Once its leader is
// reaped a group's id stays reserved while any member lives, so the signals
// reach only what the test started.
func endGroups(groups []int, grace time.Duration) {
	var live []int
	for _, g := range groups {
		if syscall.Kill(-g, syscall.SIGTERM) == nil {
			_ = syscall.Kill(-g, syscall.SIGCONT) // a stopped process acts on SIGTERM only once continued
			live = append(live, g)
		}
	}
	deadline := time.Now().Add(grace)
	for _, g := range live {
		for syscall.Kill(-g, 0) == nil && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		_ = syscall.Kill(-g, syscall.SIGKILL)
	}
}
