package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/testutil"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// runWatchdog starts `watchdog run` on cfg until the test ends.
func runWatchdog(t *testing.T, cfg string) {
	t.Helper()
	cmd := exec.Command(filepath.Join(binDir, "watchdog"), "run", "-c", cfg, "--log-format", "json")
	testutil.Start(t, cmd)
}

// alertsIn returns "check=level" for every alert line in the file.
func alertsIn(t *testing.T, path string) []string {
	b, _ := os.ReadFile(path)
	var out []string
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var a struct{ Check, Level string }
		if l != "" && json.Unmarshal([]byte(l), &a) == nil {
			out = append(out, a.Check+"="+a.Level)
		}
	}
	return out
}

func has(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func counter(t *testing.T, ws *workspace.Workspace, name string) float64 {
	st := readState(t, ws)
	if st == nil {
		return 0
	}
	c, _ := st["counters"].(map[string]any)
	v, _ := c[name].(float64)
	return v
}

const heartThresholds = "pulse: {interval: 500ms}\nthresholds: {inactivity_warning: 2s, inactivity_error: 4s, introspection: 30s}\n"

// TestE2EHeartStyleExecAgentStaysHealthy: the Heart design with the real
// binaries. An exec agent (true(1): it answers at once) woken every 3 s is
// waiting between wakeups; over 5 cycles, each longer than the 2 s warning,
// nothing alerts and no recovery starts.
func TestE2EHeartStyleExecAgentStaysHealthy(t *testing.T) {
	t.Parallel()
	trueBin, err := exec.LookPath("true")
	if err != nil {
		t.Skip("no true binary")
	}
	// true(1) changes nothing: no_progress, on by default, has tests of its own.
	ws, cfg, alerts := initWorkspace(t, heartThresholds+fmt.Sprintf("schedule: {every: 3s}\nagent: {delivery: exec, command: [%q], timeout: 10s}\nprogress: {after: 0}\n", trueBin))
	runWatchdog(t, cfg)
	waitUntil(t, "5 answered wakeups", 30*time.Second, func() bool { return counter(t, ws, "delivered") >= 5 })
	if got := alertsIn(t, alerts); len(got) != 0 {
		t.Fatalf("alerts for an agent that answered every wakeup: %v", got)
	}
	st := readState(t, ws)
	if w, _ := st["work"].(map[string]any); w["mode"] != "waiting" && w["mode"] != "working" {
		t.Fatalf("work = %v, want the scheduled design's modes", w)
	}
	if r, _ := st["recovery"].(map[string]any); r["attempt"].(float64) != 0 {
		t.Fatalf("recovery = %v, want none", r)
	}
}

// TestE2EHangingExecAgentGetsTheError: a run that hangs (sleep 30, killed at
// its 8 s timeout) has not answered its wakeup: the inactivity error and
// recovery come while it runs.
func TestE2EHangingExecAgentGetsTheError(t *testing.T) {
	t.Parallel()
	sleepBin, err := exec.LookPath("sleep")
	if err != nil {
		t.Skip("no sleep binary")
	}
	_, cfg, alerts := initWorkspace(t, heartThresholds+fmt.Sprintf("schedule: {every: 1s}\nagent: {delivery: exec, command: [%q, \"30\"], timeout: 8s}\n", sleepBin))
	runWatchdog(t, cfg)
	waitUntil(t, "the inactivity error of a hanging run", 15*time.Second, func() bool { return has(alertsIn(t, alerts), "inactivity=error") })
	if got := alertsIn(t, alerts); !has(got, "inactivity=warning") {
		t.Fatalf("alerts = %v, want the warning before the error", got)
	}
}

// TestE2ETmuxAgentIgnoringAHeartbeatGetsTheError: a real tmux pane whose
// program never writes a log. The typed heartbeat stays unanswered.
func TestE2ETmuxAgentIgnoringAHeartbeatGetsTheError(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed")
	}
	sock := filepath.Join(t.TempDir(), "tmux.sock")
	if out, err := exec.Command("tmux", "-f", "/dev/null", "-S", sock, "new-session", "-d", "-s", "agent", "cat").CombinedOutput(); err != nil {
		t.Fatalf("tmux: %v\n%s", err, out)
	}
	t.Cleanup(func() { testutil.KillTmux(sock, 5*time.Second) })
	ws, cfg, alerts := initWorkspace(t, heartThresholds+fmt.Sprintf("schedule: {every: 2s}\nagent: {delivery: tmux, tmux_target: agent, tmux_socket: %q}\n", sock))
	runWatchdog(t, cfg)
	waitUntil(t, "the heartbeat typed into the pane", 10*time.Second, func() bool {
		out, _ := exec.Command("tmux", "-S", sock, "capture-pane", "-p", "-t", "agent").Output()
		return strings.Contains(string(out), "Heartbeat: ")
	})
	waitUntil(t, "the inactivity error", 15*time.Second, func() bool { return has(alertsIn(t, alerts), "inactivity=error") })
	if n := counter(t, ws, "delivered"); n < 1 {
		t.Fatalf("delivered = %v", n)
	}
}

// liveRuns counts the processes whose command line holds marker.
func liveRuns(marker string) int {
	n := 0
	procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, p := range procs {
		b, err := os.ReadFile(p)
		if err != nil || !strings.Contains(string(b), marker) {
			continue
		}
		if pid, err := strconv.Atoi(filepath.Base(filepath.Dir(p))); err != nil || !testutil.Alive(pid) {
			continue // gone, or a zombie that waits for its reaper
		}
		n++
	}
	return n
}

// TestE2ENeverTwoRunsAtOnce: an exec agent whose every run hangs (under its
// 30 s timeout) reaches the inactivity error; recovery takes over three
// times. Each takeover ends the run it replaces before starting the next:
// no run ever finds another holding its lock, and sampling /proc never sees
// two alive. (Before the gate was exact, 4 ran at once.)
func TestE2ENeverTwoRunsAtOnce(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat("/proc/self/cmdline"); err != nil {
		t.Skip("counts processes through /proc")
	}
	agent := filepath.Join(t.TempDir(), "fakeagent")
	if err := testutil.Build("../internal/delivery/testdata/fakeagent", agent); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	lock, runs := filepath.Join(dir, "agent.lock"), filepath.Join(dir, "runs.log")
	ws, cfg, alerts := initWorkspace(t, "pulse: {interval: 500ms}\nthresholds: {inactivity_warning: 2s, inactivity_error: 4s, introspection: 30s}\n"+
		"schedule: {every: 1s}\nrecovery: {max_attempts: 3, max_wait_cycles: 1}\n"+
		fmt.Sprintf("agent: {delivery: exec, command: [%q, exclusive, %q, %q], timeout: 30s}\n", agent, lock, runs))
	runWatchdog(t, cfg)
	most := 0
	waitUntil(t, "recovery to give up", 60*time.Second, func() bool {
		most = max(most, liveRuns(lock))
		return has(alertsIn(t, alerts), "gave_up=error")
	})
	b, _ := os.ReadFile(runs)
	log := strings.Fields(string(b))
	if strings.Contains(string(b), "overlap") {
		t.Fatalf("a run started while another was alive:\n%s", b)
	}
	if starts := strings.Count(string(b), "start"); starts < 4 {
		t.Fatalf("runs = %q, want the scheduled run and 3 recovery runs", log)
	}
	if most > 1 {
		t.Fatalf("%d runs of the agent alive at once", most)
	}
	// A run taken over is counted when it has gone, which the state shows
	// at the pulse after: it may come after the give-up's alert.
	waitUntil(t, "each run recovery ended counted taken_over", 10*time.Second, func() bool { return counter(t, ws, "taken_over") >= 3 })
}

// TestE2ETimedOutRunsReachTheError: every run times out (2 s) before the
// 3 s warning, with a wakeup each second. A failed run is no answer, so
// the working stretch runs on from the first wakeup and the error comes.
func TestE2ETimedOutRunsReachTheError(t *testing.T) {
	t.Parallel()
	sleepBin, err := exec.LookPath("sleep")
	if err != nil {
		t.Skip("no sleep binary")
	}
	ws, cfg, alerts := initWorkspace(t, "pulse: {interval: 500ms}\nthresholds: {inactivity_warning: 3s, inactivity_error: 5s, introspection: 30s}\n"+
		fmt.Sprintf("schedule: {every: 1s}\nagent: {delivery: exec, command: [%q, \"30\"], timeout: 2s}\n", sleepBin))
	runWatchdog(t, cfg)
	waitUntil(t, "the inactivity error of runs that all time out", 20*time.Second, func() bool { return has(alertsIn(t, alerts), "inactivity=error") })
	st := readState(t, ws)
	if w, _ := st["work"].(map[string]any); w["mode"] != "working" {
		t.Fatalf("work = %v, want working: no run answered", w)
	}
}
