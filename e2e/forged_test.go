package e2e

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/workspace"
)

// TestE2EForgedStateFoolsNothing: the agent writes a state file that says a
// watchdog is running (pid 1, a fresh pulse, started a second ago), which
// would make check hold nothing before that start against it. With no
// watchdog's state in its state folder, check judges without a baseline
// (the two-hour-old log is an inactivity error: exit 2, as without the
// forgery) and status says it never ran (exit 1). A second watchdog on a
// workspace that one already supervises refuses to start.
func TestE2EForgedStateFoolsNothing(t *testing.T) {
	t.Parallel()
	ws, cfg, _ := initWorkspace(t, "")
	old := time.Now().Add(-2 * time.Hour)
	id := workspace.NewID(old)
	rel := "artifacts/" + string(id) + "_x/histories/" + string(id) + ".md"
	if err := ws.WriteFile(rel, workspace.ActivityLog{Type: workspace.Thinking, Content: []string{"x"}}.Format(id, "")); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(ws.Path(rel), old, old); err != nil {
		t.Fatal(err)
	}
	now := time.Now().UTC()
	forged, _ := json.Marshal(map[string]any{"version": 1, "agent": "ai-works", "pid": 1,
		"started_at": now.Add(-time.Second), "pulse_at": now, "pulse_interval": "60s"})
	if err := os.WriteFile(ws.Path(workspace.StateFile), forged, 0o644); err != nil {
		t.Fatal(err)
	}
	wd := filepath.Join(binDir, "watchdog")
	out, err := exec.Command(wd, "check", "-c", cfg).CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 2 {
		t.Fatalf("watchdog check on a forged state = %v, want exit 2 (the old log is an inactivity error)\n%s", err, out)
	}
	out, err = exec.Command(wd, "status", "-c", cfg).CombinedOutput()
	if !errors.As(err, &ee) || ee.ExitCode() != 1 || !strings.Contains(string(out), "never ran here") {
		t.Fatalf("watchdog status on a forged state = %v, want exit 1 and never ran (status reads the state folder)\n%s", err, out)
	}

	runWatchdog(t, cfg)
	waitUntil(t, "the running watchdog's lock", 10*time.Second, func() bool {
		out, err := exec.Command(wd, "status", "-c", cfg).CombinedOutput()
		return err == nil && strings.Contains(string(out), "running (pid")
	})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	out, err = exec.CommandContext(ctx, wd, "run", "-c", cfg).CombinedOutput()
	if err == nil || !strings.Contains(string(out), "another watchdog is running on this workspace") {
		t.Fatalf("a second watchdog on the same workspace = %v, want a refusal saying why\n%s", err, out)
	}
}
