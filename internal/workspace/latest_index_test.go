package workspace

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// newLogged returns a workspace with one activity log on disk and no index.
func newLogged(t *testing.T) (*Workspace, string) {
	t.Helper()
	w, err := New(t.TempDir(), time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	theme := Theme{StartID: "20260101000000", Part: "t"}
	id := ID("20260101000100")
	if err := os.MkdirAll(w.Path(theme.HistoriesDir()), 0o755); err != nil {
		t.Fatal(err)
	}
	rel, err := w.ClaimSequenced(theme.HistoriesDir(), id, ".md", ActivityLog{Type: Introspection, Content: []string{"x"}}.Format(id, ""))
	if err != nil {
		t.Fatal(err)
	}
	return w, rel
}

// A checkpoint-only index (the agent checkpointed before its first log)
// must take the log in once one exists; before, the write was skipped as
// "unchanged" forever and every tool call scanned the history.
func TestIndexWithoutLogGainsTheLog(t *testing.T) {
	w, rel := newLogged(t)
	if err := w.WriteFile(LatestFile, []byte(`{"checkpoint":null}`+"\n")); err != nil {
		t.Fatal(err)
	}
	if _, err := w.AddCheckpoint("20260101000200", time.Now(), "still here"); err != nil {
		t.Fatal(err)
	}
	stored, err := w.ReadLatest()
	if err != nil || stored.Log == nil || stored.Log.Path != rel || stored.Introspection == nil {
		t.Fatalf("stored index = %+v, %v; want the scanned log and introspection kept", stored, err)
	}
}

// NoteLatest never scans: the pulse calls it and must not walk history.
func TestNoteLatestDoesNotScan(t *testing.T) {
	w, _ := newLogged(t)
	if err := w.NoteLatest(func(*Latest) {}); err != nil {
		t.Fatal(err)
	}
	stored, err := w.ReadLatest()
	if err != nil || stored.Log != nil {
		t.Fatalf("NoteLatest(no-op) stored %+v, %v; want an index without a scanned log", stored, err)
	}
}

// A stats/ that is a symlink leading out of the workspace is refused: no
// lock, index or checkpoint is created there.
func TestIndexAndCheckpointRefuseStatsOutside(t *testing.T) {
	w, err := New(t.TempDir(), time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	outside := t.TempDir()
	if err := os.Symlink(outside, w.Path(StatsDir)); err != nil {
		t.Fatal(err)
	}
	if err := w.UpdateLatest(func(*Latest) {}); err == nil {
		t.Fatal("UpdateLatest through an outside stats/ succeeded")
	}
	if _, err := w.AddCheckpoint("20260101000100", time.Now(), "hi"); err == nil {
		t.Fatal("AddCheckpoint through an outside stats/ succeeded")
	}
	ents, _ := os.ReadDir(outside)
	if len(ents) != 0 {
		t.Fatalf("files written outside the workspace: %v", ents)
	}
	if _, err := os.Stat(filepath.Join(outside, "checkpoints")); err == nil {
		t.Fatal("checkpoints/ created outside")
	}
}

// An update takes over the check of the index its own call loaded only
// while the file is unchanged: what another process wrote in between is
// read and kept.
func TestUpdateKeepsWhatAnotherProcessWroteSinceTheLoad(t *testing.T) {
	w, _ := newLogged(t)
	other, err := New(w.Root, time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.UpdateLatest(func(*Latest) {}); err != nil {
		t.Fatal(err)
	}
	if _, err := w.LoadLatest(); err != nil {
		t.Fatal(err)
	}
	cp, err := other.AddCheckpoint("20260101000200", time.Now(), "from the other process")
	if err != nil {
		t.Fatal(err)
	}
	if err := w.UpdateLatest(func(l *Latest) {}); err != nil {
		t.Fatal(err)
	}
	stored, err := w.ReadLatest()
	if err != nil || stored.Checkpoint == nil || stored.Checkpoint.Path != cp.Path {
		t.Fatalf("stored index = %+v, %v; want the other process's checkpoint kept", stored.Checkpoint, err)
	}
}
