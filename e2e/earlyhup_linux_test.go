package e2e

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/testutil"
)

// A SIGHUP while the watchdog is still starting (here: held in its config
// read, the config being a FIFO the test writes late) must not end it: a
// hand-sent or scripted reload right after a (re)start is ordinary.
func TestSIGHUPWhileStartingDoesNotKill(t *testing.T) {
	ws, cfg, _ := initWorkspace(t, "pulse: {interval: 1s}\n")
	body, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(t.TempDir(), "watchdog.yaml")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no FIFO here: %v", err)
	}
	var stderr bytes.Buffer
	cmd := exec.Command(filepath.Join(binDir, "watchdog"), "run", "-c", fifo, "--log-format", "json")
	cmd.Stderr = &stderr
	p := testutil.Start(t, cmd)

	// Opening the FIFO for writing returns once the watchdog opened it for
	// reading: it is past its start, in the config read.
	opened := make(chan *os.File, 1)
	go func() {
		f, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err != nil {
			t.Error(err)
			f = nil
		}
		opened <- f
	}()
	var w *os.File
	select {
	case w = <-opened:
	case <-p.Done():
		t.Fatalf("the watchdog ended before reading its config:\n%s", stderr.String())
	case <-time.After(20 * time.Second):
		t.Fatal("the watchdog never opened its config")
	}
	if w == nil {
		return
	}
	if err := p.Signal(syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	// The reload that SIGHUP asked for reads a plain file.
	if err := os.WriteFile(fifo+".next", body, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(fifo+".next", fifo); err != nil {
		t.Fatal(err)
	}
	w.Write(body)
	w.Close()

	waitUntilOrEnd(t, p, &stderr, "pulses after the early SIGHUP", 10*time.Second, func() bool {
		s := readState(t, ws)
		c, _ := s["counters"].(map[string]any)
		n, _ := c["pulses"].(float64)
		return n >= 2
	})
	p.Signal(syscall.SIGTERM)
	if err := p.Wait(); err != nil {
		t.Fatalf("exit after SIGTERM: %v\n%s", err, stderr.String())
	}
	if !strings.Contains(stderr.String(), "config reloaded") {
		t.Errorf("the SIGHUP sent while starting was not applied as a reload:\n%s", stderr.String())
	}
}

// waitUntilOrEnd is waitUntil that fails at once, with the log, when the
// process ends meanwhile.
func waitUntilOrEnd(t *testing.T, p *testutil.Proc, log *bytes.Buffer, what string, timeout time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		select {
		case <-p.Done():
			t.Fatalf("the watchdog ended (%v) while waiting for %s:\n%s", p.Cmd.ProcessState, what, log.String())
		default:
		}
		if cond() {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("timed out after %s waiting for %s", timeout, what)
}
