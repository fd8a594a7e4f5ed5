//go:build linux

package e2e

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/testutil"
)

// A running watchdog gives its start-up pages back, at its start and after
// its first pulse: the read-only mappings of its binary are marked for
// page-by-page reads (smaps VmFlags rr), and it goes on pulsing with its
// code paged out.
func TestE2EDaemonReleasesItsStartPages(t *testing.T) {
	t.Parallel()
	ws, cfg, _ := initWorkspace(t, "pulse: {interval: 100ms}\n")
	var stderr bytes.Buffer
	cmd := exec.Command(filepath.Join(binDir, "watchdog"), "run", "-c", cfg, "--log-format", "json", "--log-level", "debug")
	cmd.Stderr = &stderr
	p := testutil.Start(t, cmd)
	pid, exe := p.Cmd.Process.Pid, filepath.Join(binDir, "watchdog")
	if _, _, err := testutil.MarkedRandom(pid, exe); errors.Is(err, os.ErrPermission) {
		t.Skip("the watchdog is non-dumpable: only root reads its smaps")
	}
	waitUntil(t, "the binary's mappings marked rr", 10*time.Second, func() bool {
		marked, total, err := testutil.MarkedRandom(pid, exe)
		return err == nil && total > 0 && marked == total
	})
	first := counterOf(readState(t, ws), "pulses")
	waitUntil(t, "pulses after the release", 10*time.Second, func() bool {
		return counterOf(readState(t, ws), "pulses") >= first+5
	})
	if err := p.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	p.Wait()
	// Once at the start, once when the agent has pulsed; never a failure.
	log := stderr.String()
	if n := strings.Count(log, "start-up pages given back to the kernel"); n != 2 || strings.Contains(log, "start-up pages kept") {
		t.Fatalf("%d releases, want 2:\n%s", n, log)
	}
}
