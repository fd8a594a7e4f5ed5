//go:build unix

package testutil

import (
	"os"
	"os/exec"
	"path/filepath"
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

// StopCodexDaemon stops the app-server daemon that interactive Codex
// (0.169) starts in its own session beside itself, which outlives the pane:
// `codex app-server daemon stop` with the environment the client ran in,
// then a kill for what that leaves (its pid-update-loop), found as the
// processes running from codexHome's packages. Register it before starting
// Codex, so it runs after the pane is gone.
func StopCodexDaemon(codex, codexHome string, env []string) {
	cmd := exec.Command(codex, "app-server", "daemon", "stop")
	cmd.Env = append(os.Environ(), env...)
	_ = cmd.Run()
	procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, p := range procs {
		b, err := os.ReadFile(p)
		if err != nil || !strings.HasPrefix(string(b), filepath.Join(codexHome, "packages")+string(filepath.Separator)) {
			continue
		}
		if pid, err := strconv.Atoi(filepath.Base(filepath.Dir(p))); err == nil && pid > 1 {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}

// AnswerCodexHookReview trusts every new hook when interactive Codex, in
// the tmux session "agent" on socket, shows its review of them, as a person
// does once: choose "Trust all and continue", then confirm once the choice
// shows. A key sent while the dialog is still drawing is lost, so callers
// answer each time they look, until Codex has recorded the trust.
func AnswerCodexHookReview(socket string) {
	pane, _ := exec.Command("tmux", "-S", socket, "capture-pane", "-p", "-t", "agent").Output()
	if !strings.Contains(string(pane), "Hooks need review") {
		return
	}
	key := "2"
	if strings.Contains(string(pane), "› 2. Trust all") {
		key = "Enter"
	}
	_ = exec.Command("tmux", "-S", socket, "send-keys", "-t", "agent", key).Run()
}
