package e2e

import (
	"bytes"
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

	"github.com/ai-heart/ai-heart/internal/testutil"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// initWorkspace runs `watchdog init` and returns the workspace and a config
// file path with the given YAML body (workspace and alerts filled in).
func initWorkspace(t testing.TB, body string) (*workspace.Workspace, string, string) {
	t.Helper()
	root := t.TempDir()
	dir := filepath.Join(root, "ai-works")
	if out, err := exec.Command(filepath.Join(binDir, "watchdog"), "init", dir).CombinedOutput(); err != nil {
		t.Fatalf("init: %v\n%s", err, out)
	}
	alerts := filepath.Join(root, "alerts.jsonl")
	cfg := filepath.Join(root, "watchdog.yaml")
	writeConfig(t, cfg, fmt.Sprintf("workspace: %s\nalerts: {file: %s}\n%s", dir, alerts, body))
	ws, _ := workspace.New(dir, nil)
	return ws, cfg, alerts
}

func writeConfig(t testing.TB, path, body string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readState(t testing.TB, ws *workspace.Workspace) map[string]any {
	b, err := os.ReadFile(ws.Path(workspace.StateFile))
	if err != nil {
		return nil
	}
	var m map[string]any
	json.Unmarshal(b, &m)
	return m
}

func waitUntil(t testing.TB, what string, timeout time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		if cond() {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("timed out after %s waiting for %s", timeout, what)
}

func TestSIGHUPReloadsAndRefusesABadConfig(t *testing.T) {
	ws, cfg, alerts := initWorkspace(t, "pulse: {interval: 1s}\n")
	body, _ := os.ReadFile(cfg)
	var stderr bytes.Buffer
	cmd := exec.Command(filepath.Join(binDir, "watchdog"), "run", "-c", cfg, "--log-format", "json")
	cmd.Stderr = &stderr
	p := testutil.Start(t, cmd)
	waitUntil(t, "a state file", 5*time.Second, func() bool { return readState(t, ws) != nil })

	// A bad config: refused, alerted, the old one keeps pulsing.
	writeConfig(t, cfg, strings.Replace(string(body), "interval: 1s", "interval: soon", 1))
	p.Signal(syscall.SIGHUP)
	waitUntil(t, "a config_reload alert", 5*time.Second, func() bool {
		b, _ := os.ReadFile(alerts)
		return strings.Contains(string(b), `"check":"config_reload"`) && strings.Contains(string(b), "pulse.interval")
	})
	before := readState(t, ws)["counters"].(map[string]any)["pulses"].(float64)
	waitUntil(t, "pulses after a refused reload", 5*time.Second, func() bool {
		return readState(t, ws)["counters"].(map[string]any)["pulses"].(float64) >= before+2
	})

	// A good config: taken, the new interval shows in the state.
	writeConfig(t, cfg, strings.Replace(string(body), "interval: 1s", "interval: 2s", 1))
	p.Signal(syscall.SIGHUP)
	waitUntil(t, "the new pulse interval", 6*time.Second, func() bool { return readState(t, ws)["pulse_interval"] == "2s" })

	p.Signal(syscall.SIGTERM)
	if err := p.Wait(); err != nil {
		t.Fatalf("exit after SIGTERM: %v\n%s", err, stderr.String())
	}
	if !strings.Contains(stderr.String(), "config reloaded") {
		t.Fatalf("no reload line in the log:\n%s", stderr.String())
	}
}

func TestCheckExitCodesAndStatus(t *testing.T) {
	ws, cfg, _ := initWorkspace(t, "pulse: {interval: 1s}\nthresholds: {inactivity_warning: 2s, inactivity_error: 4s}\n")
	run := func(args ...string) (string, int) {
		out, err := exec.Command(filepath.Join(binDir, "watchdog"), args...).CombinedOutput()
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return string(out), ee.ExitCode()
		}
		if err != nil {
			t.Fatal(err)
		}
		return string(out), 0
	}
	// No watchdog ran: status says so and exits 1.
	if out, code := run("status", "-c", cfg); code != 1 || !strings.Contains(out, "never ran") {
		t.Fatalf("status before any run = %d %q", code, out)
	}
	// A fresh log: everything ok, exit 0.
	theme := workspace.Theme{StartID: workspace.NewID(time.Now()), Part: "x"}
	id := workspace.NewID(time.Now())
	if err := ws.WriteFile(theme.HistoriesDir()+"/"+string(id)+".md", workspace.ActivityLog{Type: workspace.Introspection, Content: []string{"fine"}}.Format(id, "")); err != nil {
		t.Fatal(err)
	}
	if out, code := run("check", "-c", cfg); code != 0 || !strings.Contains(out, "inactivity") {
		t.Fatalf("check with a fresh log = %d\n%s", code, out)
	}
	// Without a running watchdog there is no baseline: an old proof is an error.
	old := time.Now().Add(-time.Minute)
	os.Chtimes(ws.Path(theme.HistoriesDir(), string(id)+".md"), old, old)
	if out, code := run("check", "-c", cfg); code != 2 || !strings.Contains(out, "error") {
		t.Fatalf("check with a minute-old proof = %d\n%s", code, out)
	}
	// A warning only: exit 1.
	warn := time.Now().Add(-3 * time.Second)
	os.Chtimes(ws.Path(theme.HistoriesDir(), string(id)+".md"), warn, warn)
	if out, code := run("check", "-c", cfg); code != 1 {
		t.Fatalf("check with a 3s-old proof = %d\n%s", code, out)
	}
	// While a watchdog runs, its start is the baseline: the old proof is not
	// held against the agent, and status shows the running daemon.
	os.Chtimes(ws.Path(theme.HistoriesDir(), string(id)+".md"), old, old)
	testutil.Start(t, exec.Command(filepath.Join(binDir, "watchdog"), "run", "-c", cfg, "--log-format", "json"))
	waitUntil(t, "a state file", 5*time.Second, func() bool { return readState(t, ws) != nil })
	if out, code := run("check", "-c", cfg); code != 0 || !strings.Contains(out, "baseline") {
		t.Fatalf("check beside a running watchdog = %d\n%s", code, out)
	}
	out, code := run("status", "-c", cfg)
	for _, want := range []string{"running (pid", "heartbeat ID:", "last proof:", "last introspection:", "deep work:", "recovery:", "next wakeup:", "daily cap:", "circuit breaker:", "counts:"} {
		if !strings.Contains(out, want) {
			t.Errorf("status lacks %q:\n%s", want, out)
		}
	}
	if code != 0 {
		t.Fatalf("status of a running watchdog exited %d", code)
	}
}
