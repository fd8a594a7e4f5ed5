package scan

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// barrierFiles lists the scanner barrier files in dir by name, with their
// inode numbers.
func barrierFiles(t *testing.T, dir string) map[string]uint64 {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]uint64{}
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), ".scan-barrier-") {
			fi, err := os.Lstat(filepath.Join(dir, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			out[e.Name()] = fi.Sys().(*syscall.Stat_t).Ino
		}
	}
	return out
}

// A pulse's scan waits for an event of its own, made by touching one of two
// barrier files that stay: no file is made and freed at every pulse (what
// cost most of the barrier), every scan still sees the writes before it,
// and the files go when the scanner closes.
func TestBarrierTouchesTwoFilesThatStay(t *testing.T) {
	ws := newWS(t)
	s := NewScanner(ws)
	var mu sync.Mutex
	var logged []string
	s.Logf = func(f string, a ...any) { mu.Lock(); logged = append(logged, f); mu.Unlock() }
	defer s.Close()
	scanOK(t, s)
	stats := ws.Path("stats")
	var first map[string]uint64
	for i := range 6 {
		putLog(t, ws, "20250101000000_t", "thinking", 10+i)
		snap := scanOK(t, s)
		if got := proofPath(snap.LastLog); !strings.HasSuffix(got, string(id(10+i))+".md") {
			t.Fatalf("scan %d: last log %s, want the one written just before it", i, got)
		}
		files := barrierFiles(t, stats)
		if i == 0 {
			first = files
		}
		if len(files) != 2 && i > 0 {
			t.Fatalf("scan %d: barrier files %v, want two", i, files)
		}
		for name, ino := range files {
			if old, ok := first[name]; ok && old != ino {
				t.Errorf("scan %d: %s is a new file (inode %d, was %d)", i, name, ino, old)
			}
		}
		if i == 1 {
			first = files
		}
	}
	mu.Lock()
	for _, l := range logged {
		if strings.Contains(l, "barrier") {
			t.Errorf("a scan logged %q", l)
		}
	}
	mu.Unlock()
	s.Close()
	if files := barrierFiles(t, stats); len(files) != 0 {
		t.Errorf("barrier files left after Close: %v", files)
	}
}

// A barrier file the agent replaced by a link to another file is touched
// itself: the file it points to keeps its times, and the scan goes on.
func TestBarrierNeverTouchesALinksTarget(t *testing.T) {
	ws := newWS(t)
	s := newScanner(t, ws)
	scanOK(t, s)
	scanOK(t, s)
	target := filepath.Join(t.TempDir(), "watchdogs-own")
	if err := os.WriteFile(target, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	old := time.Date(2001, 1, 1, 0, 0, 0, 0, time.UTC)
	if err := os.Chtimes(target, old, old); err != nil {
		t.Fatal(err)
	}
	stats := ws.Path("stats")
	for name := range barrierFiles(t, stats) {
		p := filepath.Join(stats, name)
		if err := os.Remove(p); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, p); err != nil {
			t.Fatal(err)
		}
	}
	for range 3 {
		start := time.Now()
		scanOK(t, s)
		if took := time.Since(start); took >= syncTimeout {
			t.Fatalf("a scan took %s: its barrier's event never came", took)
		}
	}
	fi, err := os.Stat(target)
	if err != nil {
		t.Fatal(err)
	}
	if !fi.ModTime().Equal(old) {
		t.Errorf("the link's target was touched: mtime %s, want %s", fi.ModTime(), old)
	}
}
