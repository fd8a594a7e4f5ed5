package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/testutil"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// TestE2EIDsFromTheEndsOfTime: the agent names its proofs with the last and
// the first heartbeat IDs there are, while the watchdog runs. Their ages
// saturate time.Duration; the watchdog raises future_id and goes on pulsing
// (a proof of year 9999 once overflowed its stack on the next pulse).
func TestE2EIDsFromTheEndsOfTime(t *testing.T) {
	t.Parallel()
	ws, cfg, alerts := initWorkspace(t, "pulse: {interval: 200ms}\nthresholds: {inactivity_warning: 1m, inactivity_error: 2m, introspection: 10m}\nschedule: {every: 0s}\n")
	p := testutil.Start(t, exec.Command(filepath.Join(binDir, "watchdog"), "run", "-c", cfg, "--log-format", "json"))
	waitUntil(t, "a first heartbeat ID", 10*time.Second, func() bool { _, err := ws.ReadCurrentID(); return err == nil })
	for _, id := range []string{"00010101000000", "99991231235959"} {
		path := ws.Path(workspace.CheckpointsDir, id+".txt")
		if err := os.WriteFile(path, []byte("forged\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		time.Sleep(10 * time.Millisecond) // the later file is the newest proof
	}
	waitUntil(t, "a future_id alert", 10*time.Second, func() bool {
		return strings.Contains(alertMessage(t, alerts, "future_id"), "99991231235959")
	})
	seen := map[workspace.ID]bool{}
	waitUntil(t, "three more heartbeat IDs", 10*time.Second, func() bool {
		if id, err := ws.ReadCurrentID(); err == nil {
			seen[id] = true
		}
		return len(seen) >= 3
	})
	select {
	case <-p.Done():
		t.Fatalf("the watchdog ended: %v", p.Wait())
	default:
	}
}
