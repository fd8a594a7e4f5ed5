//go:build unix

package daemon

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/pause"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// TestPlantedFilesNeverHangThePulse: FIFOs the agent puts where the watchdog
// reads (the pause file, a checkpoint, an activity log, a marker folder, a
// declaration) and a sparse 3 GB activity log neither block nor bloat the
// pulse: it goes on minting IDs, and nothing is read whole.
func TestPlantedFilesNeverHangThePulse(t *testing.T) {
	cfg := testConfig(t)
	h := start(t, cfg, nil)
	ws := h.ws()
	h.waitFor("a first pulse", 10*time.Second, func() bool { _, err := h.tryState(); return err == nil })

	now := time.Now()
	id := workspace.NewID(now)
	logDir := ws.Path("artifacts/20000101000000_t/histories")
	if err := os.MkdirAll(logDir, 0o755); err != nil {
		t.Fatal(err)
	}
	os.RemoveAll(ws.Path(workspace.CooldownDir))
	for _, p := range []string{
		ws.Path(pause.LegacyFile),
		ws.Path(workspace.CheckpointsDir + "/" + string(id) + ".txt"),
		ws.Path(workspace.DeepWorkDir + "/" + string(id) + ".txt"),
		ws.Path(workspace.CooldownDir),
		filepath.Join(logDir, string(id)+".md"),
	} {
		if err := syscall.Mkfifo(p, 0o644); err != nil {
			t.Fatalf("mkfifo %s: %v", p, err)
		}
	}
	// A sparse file of 3 GB named like the newest log: cheap to make, and
	// fatal to read whole.
	big := filepath.Join(logDir, string(workspace.NewID(now.Add(time.Second)))+".md")
	if err := os.WriteFile(big, []byte("# Activity log\n\n## Activity type\nthinking\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(big, 3<<30); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Remove(big) })

	before := h.state().Counters.Pulses
	h.waitFor("ten more pulses with the FIFOs and the sparse log in place", 15*time.Second, func() bool {
		st, err := h.tryState()
		return err == nil && st.Counters.Pulses >= before+10
	})
	l, err := ws.ReadLog("artifacts/20000101000000_t/histories/" + filepath.Base(big))
	if err != nil || l.Type != workspace.Thinking {
		t.Fatalf("ReadLog(sparse 3 GB log) = %+v, %v; want its type read from the head", l.Type, err)
	}
	if b, err := workspace.ReadAgentFile(big, workspace.MaxTextFile); err != nil || len(b) != workspace.MaxTextFile {
		t.Fatalf("ReadAgentFile(3 GB) read %d bytes, %v; want the cap, %d", len(b), err, workspace.MaxTextFile)
	}
}

// A theme's histories folder linked out of the workspace is left alone by
// the sweep (its old temp files there survive), and the operator is told.
func TestSweepLeavesLinksOutAndSaysSo(t *testing.T) {
	cfg := testConfig(t)
	outside := t.TempDir()
	temp := filepath.Join(outside, ".20250101120000.md1234567890123456789")
	if err := os.WriteFile(temp, []byte("not the watchdog's"), 0o644); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-2 * workspace.TempMaxAge)
	if err := os.Chtimes(temp, old, old); err != nil {
		t.Fatal(err)
	}
	theme := filepath.Join(cfg.Workspace, "artifacts", "20250101120000_t")
	if err := os.MkdirAll(theme, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(theme, workspace.HistoriesDir)); err != nil {
		t.Fatal(err)
	}
	h := start(t, cfg, nil)
	h.waitFor("a workspace alert", 10*time.Second, func() bool { return h.hasAlert("workspace", "warning") })
	if _, err := os.Stat(temp); err != nil {
		t.Fatalf("the sweep removed a file outside the workspace: %v", err)
	}
}
