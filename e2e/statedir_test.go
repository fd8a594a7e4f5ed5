package e2e

import (
	"bufio"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gofrs/flock"

	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/testutil"
)

// stateDirOf is the state folder of the config's (first) agent.
func stateDirOf(t testing.TB, cfg string) string {
	t.Helper()
	c, err := config.Load(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c.AgentConfigs()[0].StateDir()
}

// TestE2EOldLockAndStateFoolNothing: the agent holds stats/watchdog.lock
// (where the lock used to be) and writes a fresh state there that says a
// watchdog runs (pid 1, a pulse an hour apart), with no watchdog running.
// status says the watchdog never ran (exit 1), status --brief fails too.
// Then, with the agent still holding that lock and a FIFO or a folder
// where the cap, the breaker and the ledger used to be, a watchdog starts
// and runs.
func TestE2EOldLockAndStateFoolNothing(t *testing.T) {
	t.Parallel()
	ws, cfg, _ := initWorkspace(t, "daily_cap: 5\n")
	held := flock.New(ws.Path("stats/watchdog.lock"))
	if ok, err := held.TryLock(); !ok || err != nil {
		t.Fatalf("the agent's flock: %v, %v", ok, err)
	}
	t.Cleanup(func() { held.Unlock() })
	now := time.Now().UTC()
	forged, _ := json.Marshal(map[string]any{"version": 1, "agent": "ai-works", "pid": 1,
		"started_at": now.Add(-time.Minute), "pulse_at": now, "pulse_interval": "1h0m0s"})
	if err := os.WriteFile(ws.Path("stats/watchdog_state.json"), forged, 0o644); err != nil {
		t.Fatal(err)
	}
	wd := filepath.Join(binDir, "watchdog")
	var ee *exec.ExitError
	out, err := exec.Command(wd, "status", "-c", cfg).CombinedOutput()
	if !errors.As(err, &ee) || ee.ExitCode() != 1 || strings.Contains(string(out), "running (pid") {
		t.Fatalf("status with the old lock held and a forged state = %v, want exit 1 and not running\n%s", err, out)
	}
	out, err = exec.Command(wd, "status", "--brief", "-c", cfg).CombinedOutput()
	if !errors.As(err, &ee) || ee.ExitCode() == 0 {
		t.Fatalf("status --brief with the old lock held and a forged state = %v, want a non-zero exit\n%s", err, out)
	}

	for _, f := range []string{"stats/cost.json", "stats/circuit_breaker.json"} {
		if err := syscall.Mkfifo(ws.Path(f), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(ws.Path("stats/daily_cap.json"), 0o755); err != nil {
		t.Fatal(err)
	}
	runWatchdog(t, cfg)
	waitUntil(t, "a watchdog running despite the agent's lock and FIFOs", 15*time.Second, func() bool {
		out, err := exec.Command(wd, "status", "-c", cfg).CombinedOutput()
		return err == nil && strings.Contains(string(out), "running (pid") && !strings.Contains(string(out), "running (pid 1,")
	})
}

// TestE2EAgentAsAnotherUser: the supported secure setup, the agent as
// another user than the watchdog. An exec agent run as nobody (setpriv,
// no su) tries, on every run, to rewrite the daily cap, remove the ledger,
// plant a file and take the lock in the watchdog's state folder, and to
// signal the watchdog: every try is refused, the cap of 2 holds, and the
// ledger keeps both runs. The state folder's parent is world-readable, so
// it is the agent's own folder's mode (0700) that keeps it out.
func TestE2EAgentAsAnotherUser(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("running the agent as another user needs root")
	}
	setpriv, err := exec.LookPath("setpriv")
	if err != nil {
		t.Skip("setpriv (util-linux) is not installed")
	}
	t.Parallel()
	// Everything the agent (uid 65534) must reach is under a root it can
	// traverse; the state folder's parent is traversable too.
	root := filepath.Join(t.TempDir(), "world")
	for _, d := range []string{root, filepath.Join(root, "bin"), filepath.Join(root, "state")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for d := root; d != "/" && d != os.TempDir(); d = filepath.Dir(d) {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	agent := filepath.Join(root, "bin", "otheruser")
	if err := testutil.Build("./testdata/otheruser", agent); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(root, "ai-works")
	if out, err := exec.Command(filepath.Join(binDir, "watchdog"), "init", dir).CombinedOutput(); err != nil {
		t.Fatalf("init: %v\n%s", err, out)
	}
	if err := filepath.WalkDir(dir, func(p string, _ os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(p, 65534, 65534) // the agent's workspace is the agent's
	}); err != nil {
		t.Fatal(err)
	}
	cfgPath := filepath.Join(root, "watchdog.yaml")
	report := filepath.Join(dir, "report.jsonl")
	body := "workspace: " + dir + "\nstate_dir: " + filepath.Join(root, "state") + "\npulse: {interval: 1s}\nschedule: {every: 1s}\ndaily_cap: 2\n"
	writeConfig(t, cfgPath, body)
	stateDir := stateDirOf(t, cfgPath)
	argv, _ := json.Marshal([]string{setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", "--", agent, stateDir, report})
	writeConfig(t, cfgPath, body+"agent: {delivery: exec, timeout: 30s, command: "+string(argv)+"}\n")
	runWatchdog(t, cfgPath)

	var st struct {
		DailyCap struct{ Used, Dropped int } `json:"daily_cap"`
	}
	waitUntil(t, "a wakeup dropped by the cap after two runs", 30*time.Second, func() bool {
		b, err := os.ReadFile(filepath.Join(stateDir, "state.json"))
		return err == nil && json.Unmarshal(b, &st) == nil && st.DailyCap.Dropped > 0
	})
	f, err := os.Open(report)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	runs := 0
	for sc := bufio.NewScanner(f); sc.Scan(); runs++ {
		var r map[string]string
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		if r["uid"] != "65534" {
			t.Fatalf("the agent ran as uid %s, want 65534", r["uid"])
		}
		for what, res := range r {
			if what != "uid" && !strings.Contains(res, "permission denied") && !strings.Contains(res, "operation not permitted") {
				t.Errorf("run %d: %s as another user: %s, want refused", runs+1, what, res)
			}
		}
	}
	if runs != 2 || st.DailyCap.Used != 2 {
		t.Errorf("%d runs, cap used %d, under daily_cap 2", runs, st.DailyCap.Used)
	}
	if _, err := os.Stat(filepath.Join(stateDir, "cost.json")); err != nil {
		t.Errorf("the ledger: %v", err)
	}
	if fi, err := os.Stat(stateDir); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("state folder %v, %v; want 0700", fi, err)
	}
}
