//go:build linux

package e2e

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/workspace"
)

// TestE2EFullDiskIsAnAlert: the workspace on a small tmpfs, filled up as an
// agent can: /healthz fails with a reason, one "writes" error alert goes
// out, /metrics counts the failed writes; once space returns the watchdog
// recovers by itself (an ok alert, /healthz 200, the heartbeat ID moves).
// It needs root to mount the tmpfs, and skips without.
func TestE2EFullDiskIsAnAlert(t *testing.T) {
	t.Parallel()
	if os.Geteuid() != 0 {
		t.Skip("mounting a tmpfs needs root")
	}
	root := t.TempDir()
	mnt := filepath.Join(root, "disk")
	if err := os.Mkdir(mnt, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mount("tmpfs", mnt, "tmpfs", 0, "size=1m"); err != nil {
		t.Skipf("cannot mount a tmpfs: %v", err)
	}
	t.Cleanup(func() { _ = syscall.Unmount(mnt, syscall.MNT_DETACH) })
	dir := filepath.Join(mnt, "ai-works")
	if out, err := exec.Command(filepath.Join(binDir, "watchdog"), "init", dir).CombinedOutput(); err != nil {
		t.Fatalf("init: %v\n%s", err, out)
	}
	alerts, cfg, addr := filepath.Join(root, "alerts.jsonl"), filepath.Join(root, "watchdog.yaml"), freeAddr(t)
	writeConfig(t, cfg, fmt.Sprintf("workspace: %s\npulse: {interval: 200ms}\nalerts: {file: %s}\nhttp: {listen: %q}\n", dir, alerts, addr))
	startRun(t, cfg)
	ws, _ := workspace.New(dir, nil)
	healthz := func() (int, string) {
		resp, err := http.Get("http://" + addr + "/healthz")
		if err != nil {
			return 0, err.Error()
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	waitUntil(t, "a healthy watchdog", 10*time.Second, func() bool { c, _ := healthz(); return c == http.StatusOK })

	// Fill the disk as the agent could.
	filler := filepath.Join(dir, "artifacts", "filler.bin")
	f, err := os.Create(filler)
	if err != nil {
		t.Fatal(err)
	}
	for chunk := make([]byte, 64<<10); ; {
		if _, err := f.Write(chunk); err != nil {
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatal(err)
			}
			break
		}
	}
	f.Close()
	var body string
	waitUntil(t, "/healthz failing", 10*time.Second, func() bool {
		var c int
		c, body = healthz()
		return c == http.StatusServiceUnavailable
	})
	if !strings.Contains(body, "the watchdog's writes fail") || !strings.Contains(body, "no space left on device") {
		t.Fatalf("/healthz says %s, want the failing writes and why", body)
	}
	waitUntil(t, "a writes alert", 10*time.Second, func() bool { return countAlerts(t, alerts, "writes", "error") == 1 })
	resp, err := http.Get("http://" + addr + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	m, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(m), "watchdog_write_failures_total{agent=") || strings.Contains(string(m), "watchdog_write_failures_total{agent=\"ai-works\"} 0") {
		t.Fatalf("/metrics counts no failed write:\n%.3000s", m)
	}
	time.Sleep(time.Second) // five more pulses on a full disk: still one alert
	if n := countAlerts(t, alerts, "writes", "error"); n != 1 {
		t.Fatalf("%d writes alerts during one full disk, want 1", n)
	}

	// Space returns: the watchdog recovers by itself.
	if err := os.Remove(filler); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "/healthz healthy again", 10*time.Second, func() bool { c, _ := healthz(); return c == http.StatusOK })
	waitUntil(t, "a writes ok alert", 10*time.Second, func() bool { return countAlerts(t, alerts, "writes", "ok") == 1 })
	before, _ := ws.ReadCurrentID()
	waitUntil(t, "the heartbeat ID moving", 10*time.Second, func() bool { id, _ := ws.ReadCurrentID(); return id != before && id != "" })
}

// countAlerts counts the alert lines of check at level in the alerts file.
func countAlerts(t *testing.T, path, check, level string) int {
	t.Helper()
	b, _ := os.ReadFile(path)
	n := 0
	for _, line := range strings.Split(string(b), "\n") {
		var a struct{ Check, Level string }
		if json.Unmarshal([]byte(line), &a) == nil && a.Check == check && a.Level == level {
			n++
		}
	}
	return n
}
