//go:build unix

package testutil

import (
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// KillTmux ends a test's tmux server on socket and everything its panes
// started. kill-server alone only hangs up the panes: a program that ignores
// SIGHUP (Gemini CLI's node processes do) is re-parented to PID 1 and runs
// on after the test. Each pane leads its own process group, so the group
// gets SIGTERM, then SIGKILL after grace if anything of it is still there.
func KillTmux(socket string, grace time.Duration) {
	out, _ := exec.Command("tmux", "-S", socket, "list-panes", "-a", "-F", "#{pane_pid}").Output()
	var groups []int
	for _, f := range strings.Fields(string(out)) {
		if pid, err := strconv.Atoi(f); err == nil && pid > 1 {
			if pgid, err := syscall.Getpgid(pid); err == nil && pgid > 1 {
				groups = append(groups, pgid)
			}
		}
	}
	endGroups(groups, grace)
	_ = exec.Command("tmux", "-S", socket, "kill-server").Run()
}
