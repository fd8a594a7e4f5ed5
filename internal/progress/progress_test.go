package progress

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

func write(t *testing.T, p, s string) {
	t.Helper()
	os.MkdirAll(filepath.Dir(p), 0o755)
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Files added, changed and removed count; the agent's own records, links
// out, FIFOs and what is unchanged do not.
func TestFilesChange(t *testing.T) {
	ctx := context.Background()
	ws := t.TempDir()
	write(t, filepath.Join(ws, "artifacts/20261207_x/notes.md"), "a")
	write(t, filepath.Join(ws, "artifacts/20261207_x/histories/20261207.md"), "log")
	write(t, filepath.Join(ws, "artifacts/theme_histories/20261207_start.md"), "start")
	write(t, filepath.Join(ws, "projects/p/main.go"), "package main")
	outside := filepath.Join(t.TempDir(), "secret")
	write(t, outside, "s")
	os.Symlink(outside, filepath.Join(ws, "projects/link"))
	syscall.Mkfifo(filepath.Join(ws, "projects/fifo"), 0o644)
	w := Workspace(ws)
	before := TakeAll(ctx, w)
	if c := CompareAll(ctx, before, TakeAll(ctx, w)); c.Any() {
		t.Fatalf("nothing changed, yet %+v", c)
	}
	// Only the agent's own records: no progress.
	write(t, filepath.Join(ws, "artifacts/20261207_x/histories/20261207.md"), "log, more")
	write(t, filepath.Join(ws, "artifacts/theme_histories/20261207_end.md"), "end")
	write(t, outside, "changed outside")
	if c := CompareAll(ctx, before, TakeAll(ctx, w)); c.Any() {
		t.Fatalf("the agent's own records and a file outside changed, yet %+v", c)
	}
	write(t, filepath.Join(ws, "artifacts/20261207_x/notes.md"), "b")
	write(t, filepath.Join(ws, "projects/p/new.go"), "package main")
	os.Remove(filepath.Join(ws, "projects/p/main.go"))
	if c := CompareAll(ctx, before, TakeAll(ctx, w)); c.Files != 3 || c.Commits != 0 {
		t.Fatalf("%+v, want 3 files (changed, added, removed)", c)
	}
}

func gitIn(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=a", "-c", "user.email=a@b"}, args...)...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// In a git work tree, commits count with their lines, and a change left
// uncommitted counts as files.
func TestGitChange(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	ctx := context.Background()
	repo := t.TempDir()
	gitIn(t, repo, "init", "-q")
	write(t, filepath.Join(repo, "a.txt"), "one\n")
	gitIn(t, repo, "add", ".")
	gitIn(t, repo, "commit", "-qm", "first")
	w := []Watch{{Dir: repo}}
	before := TakeAll(ctx, w)
	if before[0].Head == "" {
		t.Fatalf("no HEAD read: %+v", before[0])
	}
	write(t, filepath.Join(repo, "a.txt"), "one\ntwo\nthree\n")
	gitIn(t, repo, "commit", "-qam", "second")
	write(t, filepath.Join(repo, "b.txt"), "x\n")
	gitIn(t, repo, "add", ".")
	gitIn(t, repo, "commit", "-qm", "third")
	c := CompareAll(ctx, before, TakeAll(ctx, w))
	if c.Commits != 2 || c.Added != 3 || c.Removed != 0 || c.Files != 2 {
		t.Fatalf("%+v, want 2 commits adding 3 lines in 2 files", c)
	}
	mid := TakeAll(ctx, w)
	write(t, filepath.Join(repo, "b.txt"), "y\n") // not committed
	if c := CompareAll(ctx, mid, TakeAll(ctx, w)); c.Files != 1 || c.Commits != 0 {
		t.Fatalf("%+v, want the uncommitted file", c)
	}
}

// A folder of more files than the bound is read to the bound, no further.
func TestBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 20,001 files")
	}
	dir := t.TempDir()
	for i := range MaxFiles + 1 {
		write(t, filepath.Join(dir, fmt.Sprintf("d%d/f%d", i/1000, i)), "x")
	}
	p := Take(context.Background(), dir, nil)
	if !p.Cut || len(p.Files) != MaxFiles {
		t.Fatalf("cut %v, %d files: want the bound", p.Cut, len(p.Files))
	}
}

func TestMissingFolder(t *testing.T) {
	p := Take(context.Background(), filepath.Join(t.TempDir(), "none"), nil)
	if p.Err == "" || len(p.Files) != 0 {
		t.Fatalf("%+v: want an error and no files", p)
	}
}

// A watched folder that is itself a link is not read (it may lead to the
// watchdog's own files or out of the workspace), and a deep chain of
// folders is walked to a bounded depth, quickly.
func TestLinkAndDepthBounded(t *testing.T) {
	ws := t.TempDir()
	os.MkdirAll(filepath.Join(ws, "stats"), 0o755)
	write(t, filepath.Join(ws, "stats", "state.json"), "x")
	os.Symlink(filepath.Join(ws, "stats"), filepath.Join(ws, "projects"))
	if p := Take(context.Background(), filepath.Join(ws, "projects"), nil); p.Err == "" || len(p.Files) != 0 {
		t.Fatalf("a watched link was read: %+v", p)
	}
	deep := filepath.Join(ws, "deep")
	d := deep
	for range 2000 {
		d = filepath.Join(d, "a")
	}
	if err := os.MkdirAll(d, 0o755); err != nil {
		t.Skip("cannot make a deep chain here:", err)
	}
	start := time.Now()
	p := Take(context.Background(), deep, nil)
	if took := time.Since(start); !p.Cut || took > 5*time.Second {
		t.Fatalf("a 2,000-deep chain: cut %v, took %s", p.Cut, took)
	}
}
