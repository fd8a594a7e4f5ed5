//go:build linux

package workspace

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func inode(t *testing.T, p string) uint64 {
	t.Helper()
	fi, err := os.Lstat(p)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Sys().(*syscall.Stat_t).Ino
}

// spares lists the dot-named files of stats/ (the pair's spare).
func spares(t *testing.T, w *Workspace) []string {
	t.Helper()
	var out []string
	for _, n := range names(t, w.Path("stats")) {
		if strings.HasPrefix(n, ".stage-") {
			out = append(out, n)
		}
	}
	return out
}

// The pulse's files are written into two files kept open and exchanged
// with the name: after the first write no file is made or freed, the name
// holds each new content whole, and ClosePulseFiles leaves nothing behind.
func TestPulseFilesAreExchangedNotMade(t *testing.T) {
	w := newWS(t)
	w.KeepPulseFiles()
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	seen := map[uint64]bool{}
	for i := range 6 {
		id := NewID(at.Add(time.Duration(i) * time.Second))
		if err := w.WriteCurrentID(id); err != nil {
			t.Fatal(err)
		}
		if got, err := w.ReadCurrentID(); err != nil || got != id {
			t.Fatalf("write %d: ReadCurrentID = %q, %v; want %q", i, got, err, id)
		}
		seen[inode(t, w.Path(CurrentIDFile))] = true
	}
	if len(seen) != 2 {
		t.Errorf("the name held %d files over 6 writes, want the pair's 2", len(seen))
	}
	if s := spares(t, w); len(s) != 1 {
		t.Errorf("stats/ holds spares %q, want one", s)
	}
	w.ClosePulseFiles()
	if s := spares(t, w); len(s) != 0 {
		t.Errorf("after ClosePulseFiles stats/ holds %q", s)
	}
	if got, err := w.ReadCurrentID(); err != nil || got != NewID(at.Add(5*time.Second)) {
		t.Errorf("after ClosePulseFiles ReadCurrentID = %q, %v", got, err)
	}
}

// What the agent can plant in stats/ between two pulses never makes the
// watchdog write into a file it did not make: the spare swapped for a hard
// link to a file of the agent's or a link out of the workspace, the spare or
// the name linked elsewhere, the name replaced. Each time the victim keeps
// its content and the name gets the new ID.
func TestPulseFilesRefusePlantedFiles(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "victim")
	plants := map[string]func(t *testing.T, w *Workspace, spare, victim string){
		"spare is a hard link to a file": func(t *testing.T, w *Workspace, spare, victim string) {
			must(t, os.Remove(spare))
			must(t, os.Link(victim, spare))
		},
		"spare is a link out of the workspace": func(t *testing.T, w *Workspace, spare, _ string) {
			must(t, os.Remove(spare))
			must(t, os.Symlink(outside, spare))
		},
		"spare linked elsewhere": func(t *testing.T, w *Workspace, spare, victim string) {
			must(t, os.Remove(victim))
			must(t, os.Link(spare, victim))
		},
		"name linked elsewhere": func(t *testing.T, w *Workspace, _, victim string) {
			must(t, os.Remove(victim))
			must(t, os.Link(w.Path(CurrentIDFile), victim))
		},
		"name replaced by a hard link to a file": func(t *testing.T, w *Workspace, _, victim string) {
			must(t, os.Remove(w.Path(CurrentIDFile)))
			must(t, os.Link(victim, w.Path(CurrentIDFile)))
		},
	}
	for name, plant := range plants {
		t.Run(name, func(t *testing.T) {
			w := newWS(t)
			w.KeepPulseFiles()
			t.Cleanup(w.ClosePulseFiles)
			at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
			must(t, w.WriteCurrentID(NewID(at)))
			must(t, w.WriteCurrentID(NewID(at.Add(time.Second))))
			victim := w.Path("artifacts/agent.md")
			must(t, os.MkdirAll(filepath.Dir(victim), 0o755))
			must(t, os.WriteFile(victim, []byte("the agent's work\n"), 0o644))
			must(t, os.WriteFile(outside, []byte("outside\n"), 0o644))
			s := spares(t, w)
			if len(s) != 1 {
				t.Fatalf("spares %q", s)
			}
			plant(t, w, w.Path("stats/"+s[0]), victim)
			before, _ := os.ReadFile(victim)
			for i := 2; i < 5; i++ {
				id := NewID(at.Add(time.Duration(i) * time.Second))
				must(t, w.WriteCurrentID(id))
				if got, err := w.ReadCurrentID(); err != nil || got != id {
					t.Fatalf("ReadCurrentID = %q, %v; want %q", got, err, id)
				}
			}
			if after, _ := os.ReadFile(victim); string(after) != string(before) {
				t.Errorf("the agent's file was written: %q, was %q", after, before)
			}
			if b, _ := os.ReadFile(outside); string(b) != "outside\n" {
				t.Errorf("the file outside was written: %q", b)
			}
		})
	}
}

// A reader that opened the name and reads it only after the next writes
// reads a whole content or nothing, never old and new bytes mixed; through
// ReadCurrentID, always a whole ID.
func TestPulseFileSlowReaderNeverMixes(t *testing.T) {
	w := newWS(t)
	w.KeepPulseFiles()
	t.Cleanup(w.ClosePulseFiles)
	long := strings.Repeat("a", 9000) + "\n"
	short := strings.Repeat("b", 10) + "\n"
	must(t, w.WritePulseFile("stats/x.json", []byte(long)))
	f, err := os.Open(w.Path("stats/x.json"))
	must(t, err)
	defer f.Close()
	must(t, w.WritePulseFile("stats/x.json", []byte(short)))
	must(t, w.WritePulseFile("stats/x.json", []byte(short)))
	buf := make([]byte, 20000)
	n, _ := f.ReadAt(buf, 0)
	if got := string(buf[:n]); got != short {
		t.Errorf("the slow reader read %d bytes %.20q..., want the whole new content", n, got)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
