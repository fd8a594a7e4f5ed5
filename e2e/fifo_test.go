//go:build unix

package e2e

import (
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/budget"
	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/cost"
	"github.com/ai-heart/ai-heart/internal/day"
	"github.com/ai-heart/ai-heart/internal/hook"
	"github.com/ai-heart/ai-heart/internal/pause"
	"github.com/ai-heart/ai-heart/internal/state"
	"github.com/ai-heart/ai-heart/internal/testutil"
	"github.com/ai-heart/ai-heart/internal/transcript"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// watchdogOpens is every path the watchdog opens in or beside an agent's
// workspace, named as they are at now for the heartbeat ID id: the files it
// reads and appends to, the folders it lists, the locks. A path the
// watchdog opens that is missing here is a hole the agent can hang it by:
// add it.
func watchdogOpens(a config.AgentConfig, id workspace.ID, now time.Time) []string {
	theme := "artifacts/" + string(id) + "_x"
	loc := time.Local
	paths := []string{
		workspace.ThemeHistoriesDir + "/" + string(id) + "_start_x.md",  // the theme's name, for the page
		theme + "/" + workspace.HistoriesDir + "/" + string(id) + ".md", // an activity log
		workspace.CheckpointsDir + "/" + string(id) + ".txt",
		workspace.DeepWorkDir + "/" + string(id) + ".txt",
		workspace.CooldownDir,              // a marker folder
		workspace.ThemeboxDir + "/a.md",    // inbox items
		workspace.FeedbackboxDir + "/a.md", //
		hook.SpoolFile(now),                // the hooks' spool
		transcript.File(now, loc),          // wakeups' transcript
		pause.LegacyFile,                   // where the pause used to be: only noticed
		// Where the watchdog's own state used to be: never read, only noticed.
		workspace.StatsDir + "/" + budget.DailyCapFile, workspace.StatsDir + "/" + budget.BreakerFile,
		workspace.StatsDir + "/" + cost.File, workspace.StatsDir + "/day/" + filepath.Base(day.File(now, loc)),
		workspace.StatsDir + "/watchdog.lock",
		workspace.LatestFile, ".latest_proof.lock", // the latest-proof index and its lock
		workspace.StateFile, workspace.CurrentIDFile, workspace.PromptFile,
	}
	for i, p := range paths {
		if p == ".latest_proof.lock" {
			p = workspace.StatsDir + "/" + p
		}
		paths[i] = filepath.Join(a.Workspace, filepath.FromSlash(p))
	}
	// The watchdog's own state folder is out of an agent of another user's
	// reach; an agent of the same user could still plant there.
	if dir := a.StateDir(); dir != "" {
		for _, p := range []string{day.File(now, loc), budget.DailyCapFile, budget.BreakerFile, cost.File, state.File, "run.json"} {
			paths = append(paths, filepath.Join(dir, filepath.FromSlash(p)))
		}
	}
	if f := a.PauseFile(); f != "" {
		paths = append(paths, f)
	}
	return paths
}

// TestFIFOsHangNothing: the agent plants a FIFO at every path the watchdog
// opens while it runs. The pulse goes on (the heartbeat ID keeps changing),
// alerts are written (the day strip's append meets its FIFO and is refused:
// a writes alert), /healthz answers, SIGTERM ends it; and a fresh run with
// the FIFOs in place pulses, or refuses at once.
func TestFIFOsHangNothing(t *testing.T) {
	addr := freeAddr(t)
	ws, cfgPath, alerts := initWorkspace(t, fmt.Sprintf(`pulse: {interval: 100ms}
thresholds: {inactivity_warning: 2s, inactivity_error: 4s, introspection: 30s}
schedule: {every: 0s}
http: {listen: %s}
`, addr))
	c, err := config.Load(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	a := c.AgentConfigs()[0]
	// answers: /healthz answers within a second. It may say 503: the
	// watchdog cannot append its day strip to a FIFO, and says so.
	answers := func() bool {
		cl := http.Client{Timeout: time.Second}
		resp, err := cl.Get("http://" + addr + "/healthz")
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK || resp.StatusCode == http.StatusServiceUnavailable
	}
	// pulsing waits for three new heartbeat IDs and a /healthz answer.
	pulsing := func(when string) {
		t.Helper()
		seen := map[workspace.ID]bool{}
		waitUntil(t, "three new heartbeat IDs "+when, 15*time.Second, func() bool {
			if id, err := ws.ReadCurrentID(); err == nil {
				seen[id] = true
			}
			return len(seen) >= 4
		})
		waitUntil(t, "/healthz "+when, 5*time.Second, answers)
	}

	p := testutil.Start(t, exec.Command(filepath.Join(binDir, "watchdog"), "run", "-c", cfgPath, "--log-format", "json"))
	waitUntil(t, "a first heartbeat ID", 10*time.Second, func() bool { _, err := ws.ReadCurrentID(); return err == nil })
	now := time.Now()
	var planted []string
	for _, when := range []time.Time{now, now.Add(time.Second), now.Add(2 * time.Second)} {
		for _, path := range watchdogOpens(a, workspace.NewID(when), when) {
			if _, err := os.Lstat(path); err == nil {
				if path == ws.Path(workspace.CurrentIDFile) {
					continue // the heartbeat ID is read from it below
				}
				if err := os.RemoveAll(path); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := syscall.Mkfifo(path, 0o644); err == nil {
				planted = append(planted, path)
			} else if !os.IsExist(err) {
				t.Fatalf("mkfifo %s: %v", path, err)
			}
		}
	}
	t.Cleanup(func() {
		for _, p := range planted {
			os.Remove(p)
		}
	})
	pulsing("with the FIFOs planted")
	waitUntil(t, "an inactivity alert, and a writes alert for the day strip's FIFO", 15*time.Second, func() bool {
		al := alertsIn(t, alerts)
		return has(al, "inactivity=warning") && has(al, "writes=error")
	})
	pulsing("after the alert")

	p.Signal(syscall.SIGTERM)
	select {
	case <-p.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("SIGTERM did not end the watchdog within 10s")
	}

	// A fresh run, with the FIFOs still in place, never hangs: it pulses,
	// or refuses to start at once saying which file is not one (the
	// watchdog's own state files, while they live in the workspace).
	var stderr lockedBuffer
	cmd := exec.Command(filepath.Join(binDir, "watchdog"), "run", "-c", cfgPath, "--log-format", "json")
	cmd.Stderr = &stderr
	fresh := testutil.Start(t, cmd)
	seen := map[workspace.ID]bool{}
	waitUntil(t, "a fresh run among the FIFOs to pulse or refuse", 15*time.Second, func() bool {
		select {
		case <-fresh.Done():
			return true
		default:
		}
		if id, err := ws.ReadCurrentID(); err == nil {
			seen[id] = true
		}
		return len(seen) >= 3
	})
	select {
	case <-fresh.Done():
		if !strings.Contains(stderr.String(), "not a regular file") {
			t.Fatalf("the fresh run ended without saying which file is not one:\n%s", stderr.String())
		}
		t.Logf("the fresh run refused to start: %s", strings.TrimSpace(stderr.String()))
	default:
		waitUntil(t, "/healthz in a fresh run among the FIFOs", 5*time.Second, answers)
	}
}
