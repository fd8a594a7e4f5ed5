//go:build linux

package e2e

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/state"
	"github.com/ai-heart/ai-heart/internal/testutil"
)

// TestE2EForgedLockInStateDirFoolsNothing: an agent of the watchdog's own
// user stops the watchdog, holds the lock in its state folder with a
// program of its own (flock) and writes a fresh state file there. Whether
// that file names pid 1 or the forger's own pid, status does not show a
// watchdog running, check takes no baseline from it, and a new watchdog
// says which process (pid and program) holds its lock instead of "another
// watchdog is running". Once the forger is gone, a real watchdog reads as
// running.
func TestE2EForgedLockInStateDirFoolsNothing(t *testing.T) {
	t.Parallel()
	flockBin, err := exec.LookPath("flock")
	if err != nil {
		t.Skip("flock (util-linux) is not installed")
	}
	_, cfg, _ := initWorkspace(t, "")
	dir := stateDirOf(t, cfg)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	forger := testutil.Start(t, exec.Command(flockBin, "-x", filepath.Join(dir, state.LockFile), "sleep", "600"))
	waitUntil(t, "the forger to hold the lock", 10*time.Second, func() bool { return state.Held(dir) })
	wd := filepath.Join(binDir, "watchdog")
	for _, pid := range []int{1, forger.Cmd.Process.Pid} {
		t.Run(fmt.Sprintf("state names pid %d", pid), func(t *testing.T) {
			now := time.Now().UTC()
			forged := state.State{Version: 1, Agent: "ai-works", PID: pid, StartedAt: now.Add(-time.Minute), PulseAt: now, PulseInterval: config.Duration(time.Hour)}
			if err := state.Save(dir, forged); err != nil {
				t.Fatal(err)
			}
			var ee *exec.ExitError
			out, err := exec.Command(wd, "status", "-c", cfg).CombinedOutput()
			if !errors.As(err, &ee) || ee.ExitCode() != 1 || strings.Contains(string(out), "running (pid") {
				t.Fatalf("status with the lock held by flock and a forged state = %v, want exit 1 and not running\n%s", err, out)
			}
			holder := fmt.Sprintf("pid %d (flock)", forger.Cmd.Process.Pid)
			if !strings.Contains(string(out), holder) {
				t.Errorf("status does not say the lock is held by %s:\n%s", holder, out)
			}
			out, _ = exec.Command(wd, "status", "--json", "-c", cfg).CombinedOutput()
			var js []struct{ Running bool }
			if err := json.Unmarshal(out, &js); err != nil || len(js) != 1 || js[0].Running {
				t.Errorf("status --json = %v, %s; want running false", err, out)
			}
			out, _ = exec.Command(wd, "check", "-c", cfg).CombinedOutput()
			if strings.Contains(string(out), "baseline: running watchdog") {
				t.Errorf("check took the forged state for a running watchdog's:\n%s", out)
			}
		})
	}
	run := exec.Command(wd, "run", "-c", cfg, "--log-format", "json")
	out, err := run.CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || strings.Contains(string(out), "another watchdog is running") ||
		!strings.Contains(string(out), fmt.Sprintf("pid %d (flock)", forger.Cmd.Process.Pid)) {
		t.Fatalf("watchdog run with flock holding its lock = %v, want a refusal naming pid %d (flock), not another watchdog\n%s", err, forger.Cmd.Process.Pid, out)
	}

	// flock hands its locked file to sleep: the whole group goes.
	if err := syscall.Kill(-forger.Cmd.Process.Pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	forger.Wait()
	waitUntil(t, "the forger's lock to go", 10*time.Second, func() bool { return !state.Held(dir) })
	real := testutil.Start(t, exec.Command(wd, "run", "-c", cfg, "--log-format", "json"))
	want := fmt.Sprintf("running (pid %d,", real.Cmd.Process.Pid)
	waitUntil(t, "the real watchdog to read as running", 15*time.Second, func() bool {
		out, err := exec.Command(wd, "status", "-c", cfg).CombinedOutput()
		return err == nil && strings.Contains(string(out), want)
	})
}
