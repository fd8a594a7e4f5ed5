package statefile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

type counter struct {
	Used int `json:"used"`
}

func TestReadMissingIsNoError(t *testing.T) {
	v := counter{Used: 7}
	found, err := Read(filepath.Join(t.TempDir(), "none.json"), &v)
	if found || err != nil || v.Used != 7 {
		t.Fatalf("Read(missing) = %v, %v, %+v; want false, nil, untouched", found, err, v)
	}
}

// Whatever stands at the path, a read never blocks and never fails the
// caller's start: it is corrupt, one way.
func TestReadAnythingButJSONIsCorrupt(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.json")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	folder := filepath.Join(dir, "folder.json")
	if err := os.Mkdir(folder, 0o700); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big.json")
	if err := os.WriteFile(big, []byte(`{"used": 1`+strings.Repeat(" ", MaxFile)+`}`), 0o600); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte(`{"used":`), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{fifo, folder, big, bad} {
		var v counter
		found, err := Read(p, &v)
		if !found || !errors.Is(err, ErrCorrupt) {
			t.Errorf("Read(%s) = %v, %v; want found, ErrCorrupt", filepath.Base(p), found, err)
		}
	}
}

func TestWriteIsTheWatchdogsAlone(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state", "alice-0000")
	p := filepath.Join(dir, "daily_cap.json")
	if err := Write(p, counter{Used: 3}); err != nil {
		t.Fatal(err)
	}
	var v counter
	if found, err := Read(p, &v); !found || err != nil || v.Used != 3 {
		t.Fatalf("read back = %v, %v, %+v", found, err, v)
	}
	for path, want := range map[string]os.FileMode{dir: DirMode, p: FileMode} {
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if got := fi.Mode().Perm(); got != want {
			t.Errorf("%s: mode %o, want %o", path, got, want)
		}
	}
}

// A file rewritten every pulse without its fsync is still the watchdog's
// alone: a first write, or one over a link, leaves a regular 0600 file
// with the whole content, as Write does.
func TestWriteNoSyncKeepsTheMode(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state", "alice-0000")
	p := filepath.Join(dir, "state.json")
	other := filepath.Join(t.TempDir(), "elsewhere.json")
	if err := os.WriteFile(other, []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		name  string
		plant func()
	}{
		{"missing", func() {}},
		{"again", func() {}},
		{"a link", func() {
			os.Remove(p)
			if err := os.Symlink(other, p); err != nil {
				t.Fatal(err)
			}
		}},
	}
	for i, s := range steps {
		s.plant()
		if err := WriteEncodedNoSync(p, []byte(`{"used": `+string(rune('1'+i))+"}\n")); err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		fi, err := os.Lstat(p)
		if err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm() != FileMode {
			t.Fatalf("%s: %v, %v; want a regular file, mode %o", s.name, fi.Mode(), err, FileMode)
		}
		var v counter
		if found, err := Read(p, &v); !found || err != nil || v.Used != i+1 {
			t.Fatalf("%s: read back %v, %v, %+v", s.name, found, err, v)
		}
	}
	if b, _ := os.ReadFile(other); string(b) != "{}\n" {
		t.Fatalf("the link's target was written: %q", b)
	}
	if names, _ := os.ReadDir(dir); len(names) != 1 {
		t.Fatalf("the folder holds %d entries, want the file alone", len(names))
	}
}
