package state

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/workspace"
)

// TestSaveAndPublishWritesWhatSaveAndPublishWrite: the pulse's one
// encoding, its buffer reused, gives both copies the very bytes Save and
// Publish give them, pulse after pulse (a longer state, then a shorter one,
// leaves nothing of the longer behind).
func TestSaveAndPublishWritesWhatSaveAndPublishWrite(t *testing.T) {
	ws, err := workspace.New(t.TempDir(), time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	if err := ws.EnsureSkeleton(); err != nil {
		t.Fatal(err)
	}
	dir, want := t.TempDir(), t.TempDir()
	long := State{Version: 1, Agent: "a", PulseAt: time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC),
		Notices: []string{"[warning] inactivity: a long notice <with> & characters JSON escapes"}}
	short := State{Version: 1, Agent: "a", PulseAt: time.Date(2026, 11, 27, 9, 0, 1, 0, time.UTC)}
	for _, s := range []State{long, short, long} {
		serr, perr := SaveAndPublish(dir, ws, s, s.PulseAt.Second() == 0)
		if serr != nil || perr != nil {
			t.Fatalf("SaveAndPublish = %v, %v", serr, perr)
		}
		if err := Save(want, s); err != nil {
			t.Fatal(err)
		}
		saved := read(t, filepath.Join(want, File))
		if got := read(t, filepath.Join(dir, File)); !bytes.Equal(got, saved) {
			t.Fatalf("state folder copy:\n%s\nwant Save's:\n%s", got, saved)
		}
		if got := read(t, ws.Path(workspace.StateFile)); !bytes.Equal(got, saved) {
			t.Fatalf("published copy:\n%s\nwant Save's:\n%s", got, saved)
		}
		if fi, err := os.Stat(filepath.Join(dir, File)); err != nil || fi.Mode().Perm() != 0o600 {
			t.Fatalf("state file mode %v, %v; want 0600", fi.Mode(), err)
		}
		if _, err := ReadPublished(ws); err != nil {
			t.Fatal(err)
		}
	}
}

func read(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
