package workspace

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"
)

// swapOut moves the workspace folder rel aside (to rel+".old", still inside)
// and puts a link to outside in its place: what an agent does to carry a
// write of the watchdog's out of its workspace.
func swapOut(t testing.TB, w *Workspace, rel, outside string) {
	if err := os.Rename(w.Path(rel), w.Path(rel+".old")); err != nil {
		t.Error(err)
		return
	}
	if err := os.Symlink(outside, w.Path(rel)); err != nil {
		t.Error(err)
	}
}

// TestWritersStayInsideWhenAFolderIsSwappedMidWrite: each writer opens its
// folder once inside the workspace's root; the folder swapped for a link
// out after that (between the temp file and the name it takes) cannot
// move the write: it lands in the folder as opened, never outside.
func TestWritersStayInsideWhenAFolderIsSwappedMidWrite(t *testing.T) {
	id := NewID(time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC))
	writers := []struct {
		name, dir string
		write     func(w *Workspace) error
		landed    string // where the write is found afterwards
	}{
		{"WriteFile", "projects/p", func(w *Workspace) error { return w.WriteFile("projects/p/x.md", []byte("x")) }, "projects/p.old/x.md"},
		{"WriteFile replacing", "stats", func(w *Workspace) error { return w.WriteCurrentID(id) }, "stats.old/current_heartbeat_id.txt"},
		{"CreateNew", "projects/p", func(w *Workspace) error { return w.CreateNew("projects/p/x.md", []byte("x"), time.Time{}) }, "projects/p.old/x.md"},
		{"ClaimSequenced", "projects/p", func(w *Workspace) error {
			_, err := w.ClaimSequenced("projects/p", id, ".md", []byte("x"))
			return err
		}, "projects/p.old/" + string(id) + ".md"},
		{"Rename", "projects/p", func(w *Workspace) error { return w.Rename("projects/p/a.md", "projects/p/b.md") }, "projects/p.old/a.md"}, // refused: the new name leads out
		{"AddCheckpoint", "stats/checkpoints", func(w *Workspace) error {
			_, err := w.AddCheckpoint(id, time.Now(), "working")
			return err
		}, "stats/checkpoints.old/" + string(id) + ".txt"},
	}
	for _, tt := range writers {
		t.Run(tt.name, func(t *testing.T) {
			w := newWS(t)
			outside := t.TempDir()
			mkdir(t, w.Path(tt.dir))
			put(t, w, tt.dir+"/a.md", "a", time.Time{})
			put(t, w, CurrentIDFile, "old\n", time.Time{})
			t.Cleanup(func() { midWrite = func() {} })
			midWrite = func() { midWrite = func() {}; swapOut(t, w, tt.dir, outside) }

			err := tt.write(w)
			if got := names(t, outside); len(got) != 0 {
				t.Fatalf("%s wrote outside the workspace: %v (err %v)", tt.name, got, err)
			}
			if _, serr := os.Lstat(w.Path(tt.landed)); serr != nil {
				t.Fatalf("%s = %v; the write is not in the folder it opened: %v", tt.name, err, serr)
			}
		})
	}
}

// TestWriteFileRacingASwap: a goroutine swaps a folder for a link out and
// back as fast as it can while WriteFile writes into it; nothing is ever
// written outside, whatever the interleaving.
func TestWriteFileRacingASwap(t *testing.T) {
	w := newWS(t)
	outside := t.TempDir()
	mkdir(t, w.Path("projects/p"))
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		p, aside := w.Path("projects/p"), w.Path("projects/p.aside")
		for {
			select {
			case <-stop:
				return
			default:
			}
			if os.Rename(p, aside) != nil || os.Symlink(outside, p) != nil {
				continue
			}
			time.Sleep(50 * time.Microsecond) // each state lasts long enough to be met
			os.Remove(p)
			os.Rename(aside, p)
			time.Sleep(50 * time.Microsecond)
		}
	}()
	for i := 0; i < 2000; i++ {
		_ = w.WriteFile("projects/p/x.md", []byte("x"))
	}
	close(stop)
	wg.Wait()
	if got := names(t, outside); len(got) != 0 {
		t.Fatalf("WriteFile wrote outside the workspace while its folder was swapped: %v", got)
	}
	if _, err := os.Stat(filepath.Join(w.Path("projects"), "p", "x.md")); err != nil {
		t.Fatalf("no write landed inside: %v", err)
	}
}

// TestWalkDirAfterASwap: while the walk stands on a theme's sub-folder, the
// agent swaps the theme's folder for a link out to a tree of the same shape.
// The next listing is refused by the root; nothing outside is ever named.
// (A walk by path lists the outside's secret.)
func TestWalkDirAfterASwap(t *testing.T) {
	w := newWS(t)
	outside := t.TempDir()
	mkdir(t, filepath.Join(outside, "sub"))
	if err := os.WriteFile(filepath.Join(outside, "sub", "secret.txt"), []byte("s"), 0o600); err != nil {
		t.Fatal(err)
	}
	mkdir(t, w.Path("artifacts/t/sub"))
	var seen []string
	err := w.WalkDir("artifacts/t", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		seen = append(seen, p)
		if p == "artifacts/t/sub" {
			swapOut(t, w, "artifacts/t", outside)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if slices.Contains(seen, "artifacts/t/sub/secret.txt") {
		t.Fatalf("the walk listed a file outside the workspace: %v", seen)
	}
	if !slices.Contains(seen, "artifacts/t/sub") {
		t.Fatalf("the walk never reached the sub-folder: %v", seen)
	}
}

// TestOpenAppendRefusesALinkOut: a transcript folder that is a link out is
// never appended through, and nothing is created outside.
func TestOpenAppendRefusesALinkOut(t *testing.T) {
	w := newWS(t)
	outside := t.TempDir()
	mkdir(t, w.Path("stats"))
	if err := os.Symlink(outside, w.Path("stats/wakeups")); err != nil {
		t.Fatal(err)
	}
	f, err := w.OpenAppend("stats/wakeups/2026-11-27.jsonl", 0o640)
	if err == nil {
		f.Close()
		t.Fatal("OpenAppend opened a file through a link out of the workspace")
	}
	if !errors.Is(err, ErrOutside) {
		t.Errorf("err = %v, want ErrOutside", err)
	}
	if got := names(t, outside); len(got) != 0 {
		t.Fatalf("created outside: %v", got)
	}
	f, err = w.OpenAppend("stats/t/2026-11-27.jsonl", 0o640)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
}
