package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/testutil"
)

// TestE2EKillNineLeavesNoRunBehind: an exec run hangs with a child of its
// own; the watchdog is killed with -9. The kernel ends the run's leader with
// it, and the next watchdog ends what the leader started before it wakes the
// agent again, and says so: never two runs, never one unsupervised.
func TestE2EKillNineLeavesNoRunBehind(t *testing.T) {
	t.Parallel()
	agent := filepath.Join(t.TempDir(), "fakeagent")
	if err := testutil.Build("../internal/delivery/testdata/fakeagent", agent); err != nil {
		t.Fatal(err)
	}
	pids := filepath.Join(t.TempDir(), "pids")
	_, cfg, alerts := initWorkspace(t, "pulse: {interval: 300ms}\nthresholds: {inactivity_warning: 1m, inactivity_error: 2m, introspection: 10m}\nschedule: {every: 1s}\n"+
		fmt.Sprintf("agent: {delivery: exec, command: [%q, hang, %q], timeout: 2m, stop_grace: 1s}\n", agent, pids))
	first := testutil.Start(t, exec.Command(filepath.Join(binDir, "watchdog"), "run", "-c", cfg, "--log-format", "json"))
	var leader, child int
	waitUntil(t, "the run and its child", 15*time.Second, func() bool {
		b, err := os.ReadFile(pids)
		return err == nil && len(b) > 0 && func() bool { _, err := fmt.Sscan(string(b), &leader, &child); return err == nil }()
	})
	t.Cleanup(func() { syscall.Kill(-leader, syscall.SIGKILL) })
	if err := first.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	first.Wait()
	waitUntil(t, "the kernel to end the run's leader with the watchdog", 10*time.Second, func() bool { return !testutil.Alive(leader) })
	if !testutil.Alive(child) {
		t.Fatal("the leader's child ended too: nothing left for the next watchdog to prove")
	}
	os.Remove(pids)
	runWatchdog(t, cfg)
	waitUntil(t, "the next watchdog to end the left-over child", 15*time.Second, func() bool { return !testutil.Alive(child) })
	waitUntil(t, "the alert that says so", 5*time.Second, func() bool { return has(alertsIn(t, alerts), "run=warning") })
	if msg := alertMessage(t, alerts, "run"); !strings.Contains(msg, fmt.Sprint(leader)) {
		t.Fatalf("run alert = %q, want the process group named", msg)
	}
	// And it goes on: a new run starts, the only one.
	waitUntil(t, "the next run", 15*time.Second, func() bool { _, err := os.Stat(pids); return err == nil })
}
