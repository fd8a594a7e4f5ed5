package workspace

import (
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// countSyncs counts the fsyncs of the workspace's writers until the test
// ends.
func countSyncs(t *testing.T) *atomic.Int64 {
	t.Helper()
	var n atomic.Int64
	old := syncFile
	syncFile = func(f *os.File) error { n.Add(1); return old(f) }
	t.Cleanup(func() { syncFile = old })
	return &n
}

// The heartbeat ID is written at every pulse and never read back by the
// watchdog: atomically, without the fsyncs that cost most of a pulse. What
// the agent writes stays durable.
func TestPulseFilesAreAtomicNotDurable(t *testing.T) {
	w := newWS(t)
	syncs := countSyncs(t)
	if err := w.WriteCurrentID(NewID(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))); err != nil {
		t.Fatal(err)
	}
	if n := syncs.Load(); n != 0 {
		t.Errorf("WriteCurrentID made %d fsyncs, want 0", n)
	}
	if id, err := w.ReadCurrentID(); err != nil || id != "20260102030405" {
		t.Errorf("ReadCurrentID = %q, %v", id, err)
	}
	syncs.Store(0)
	if err := w.WriteFile("artifacts/a.md", []byte("agent's\n")); err != nil {
		t.Fatal(err)
	}
	if n := syncs.Load(); n != 2 {
		t.Errorf("WriteFile made %d fsyncs, want 2 (the file and its folder)", n)
	}
}

// Without its fsyncs a write is still atomic: a reader racing the writer
// sees the old content or the new, never a part or an empty file.
func TestWriteFileNoSyncIsAtomic(t *testing.T) {
	w := newWS(t)
	contents := []string{strings.Repeat("a", 40_000) + "\n", strings.Repeat("b", 3) + "\n"}
	if err := w.WriteFileNoSync("stats/x.json", []byte(contents[0])); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	done := make(chan struct{})
	wg.Go(func() {
		defer close(done)
		for i := range 300 {
			if err := w.WriteFileNoSync("stats/x.json", []byte(contents[i%2])); err != nil {
				t.Error(err)
				return
			}
		}
	})
	for reads := 0; ; reads++ {
		select {
		case <-done:
			wg.Wait()
			if reads == 0 {
				t.Fatal("no read raced the writes")
			}
			for _, n := range names(t, w.Path("stats")) {
				if n != "x.json" {
					t.Errorf("left behind %q", n)
				}
			}
			return
		default:
		}
		b, err := os.ReadFile(w.Path("stats/x.json"))
		if err != nil || (string(b) != contents[0] && string(b) != contents[1]) {
			t.Fatalf("a reader saw %d bytes, %v: a torn write", len(b), err)
		}
	}
}
