package workspace

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/renameio/v2"
)

func TestIsWriterTemp(t *testing.T) {
	for name, want := range map[string]bool{
		".20250101120000.md1234567890123456789": true,
		".latest_proof.json902348239482394823":  true,
		".2025-06-01.jsonl123456789012":         true,
		".stage-1234567":                        true,
		".scan-barrier-4242-1-0":                true,
		".scan-barrier-4242-1":                  false,
		".scan-barrier-a-1-0":                   false,
		".20250101120000.md12345678901":         false, // 11 digits: not renameio's
		".notes.md2":                            false,
		".gitignore":                            false,
		".stage-":                               false,
		".stage-abc":                            false,
		".md123456789012345":                    false, // no target name
		"20250101120000.md":                     false,
		".hidden.png1234567890123":              false, // not a kind the tools write
	} {
		if got := IsWriterTemp(name); got != want {
			t.Errorf("IsWriterTemp(%q) = %v, want %v", name, got, want)
		}
	}
}

// TestSweepTemps leaves temp files the way a killed writer does (a real
// renameio pending file never closed) and checks only old ones of that
// pattern go, in the folders writers use.
func TestSweepTemps(t *testing.T) {
	root := t.TempDir()
	ws, err := New(root, time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	if err := ws.EnsureSkeleton(); err != nil {
		t.Fatal(err)
	}
	hist := "artifacts/20250101000000_t/histories"
	for _, d := range []string{hist, "projects/app"} {
		if err := os.MkdirAll(ws.Path(d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	now := time.Now()
	old, recent := now.Add(-TempMaxAge-time.Minute), now.Add(-TempMaxAge+time.Minute)
	pending := func(rel string) string { // a real renameio temp, abandoned
		t.Helper()
		dest := ws.Path(rel)
		pf, err := renameio.NewPendingFile(dest, renameio.WithTempDir(filepath.Dir(dest)))
		if err != nil {
			t.Fatal(err)
		}
		pf.File.Close() // never renamed into place, never cleaned up: a kill
		return filepath.Join(filepath.Dir(rel), filepath.Base(pf.Name()))
	}
	files := []struct {
		rel   string
		mtime time.Time
		gone  bool
	}{
		{pending(hist + "/20250101120000.md"), old, true},
		{pending(hist + "/20250101120100.md"), recent, false},
		{pending(StateFile), old, true},
		{pending(CheckpointsDir + "/20250101120000.txt"), old, true},
		{pending(ThemeHistoriesDir + "/20250101120000_start_t.md"), old, true},
		{hist + "/.stage-4242", old, true},
		{pending("projects/app/notes.md"), old, false}, // not a folder the writers use
		{hist + "/.notes.md2", old, false},
		{StatsDir + "/.gitignore", old, false},
		{hist + "/20250101110000.md", old, false},
	}
	for _, f := range files {
		if err := os.WriteFile(ws.Path(f.rel), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(ws.Path(f.rel), f.mtime, f.mtime); err != nil {
			t.Fatal(err)
		}
	}
	n, err := ws.SweepTemps(now, TempMaxAge)
	if err != nil {
		t.Fatal(err)
	}
	want := 0
	for _, f := range files {
		_, err := os.Stat(ws.Path(f.rel))
		if gone := os.IsNotExist(err); gone != f.gone {
			t.Errorf("%s: gone = %v, want %v", f.rel, gone, f.gone)
		}
		if f.gone {
			want++
		}
	}
	if n != want {
		t.Errorf("SweepTemps removed %d, want %d", n, want)
	}
}

// A folder linked out of the workspace is neither swept nor created through:
// with histories linked outside, the sweep removed files there; with stats
// linked outside, start-up created folders there.
func TestSweepAndSkeletonStayInside(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	w, err := New(root, time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.EnsureSkeleton(); err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	old := now.Add(-2 * TempMaxAge)
	temp := ".20250101120000.md1234567890123456789"
	for _, d := range []string{"hist", "themes"} {
		if err := os.MkdirAll(filepath.Join(outside, d), 0o755); err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(outside, d, temp)
		if err := os.WriteFile(p, []byte("theirs"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, old, old); err != nil {
			t.Fatal(err)
		}
	}
	theme := filepath.Join(root, "artifacts", "20250101120000_t")
	if err := os.MkdirAll(theme, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "hist"), filepath.Join(theme, HistoriesDir)); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(w.Path(ThemeHistoriesDir)); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "themes"), w.Path(ThemeHistoriesDir)); err != nil {
		t.Fatal(err)
	}
	n, err := w.SweepTemps(now, TempMaxAge)
	if n != 0 || !errors.Is(err, ErrOutside) {
		t.Fatalf("sweep: %d removed, %v; want none and ErrOutside", n, err)
	}
	for _, d := range []string{"hist", "themes"} {
		if _, err := os.Stat(filepath.Join(outside, d, temp)); err != nil {
			t.Errorf("the sweep removed a file outside the workspace (%s): %v", d, err)
		}
	}

	// stats linked outside: the skeleton is refused, nothing made there.
	if err := os.RemoveAll(w.Path(StatsDir)); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, w.Path(StatsDir)); err != nil {
		t.Fatal(err)
	}
	if err := w.EnsureSkeleton(); !errors.Is(err, ErrOutside) {
		t.Fatalf("skeleton through a link out: %v, want ErrOutside", err)
	}
	ents, _ := os.ReadDir(outside)
	if len(ents) != 2 {
		t.Fatalf("start-up created %d entries outside the workspace", len(ents)-2)
	}
}
