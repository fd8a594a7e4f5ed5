package workspace

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
)

// names lists a folder's entries, sorted.
func names(t testing.TB, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		out = append(out, e.Name())
	}
	sort.Strings(out)
	return out
}

func TestWriteFile(t *testing.T) {
	w := newWS(t)
	tests := []struct {
		name, rel, data string
	}{
		{"new deep folder", "artifacts/a/b/c.md", "one\n"},
		{"replace", "artifacts/a/b/c.md", "two, longer than one\n"},
		{"shorter replace", "artifacts/a/b/c.md", "3"},
		{"empty", "stats/empty.txt", ""},
		{"japanese name", "projects/日本語.md", "本文"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := w.WriteFile(tt.rel, []byte(tt.data)); err != nil {
				t.Fatalf("WriteFile(%q) = %v", tt.rel, err)
			}
			b, err := os.ReadFile(w.Path(tt.rel))
			if err != nil || string(b) != tt.data {
				t.Fatalf("after WriteFile(%q), content = %q, %v, want %q", tt.rel, b, err, tt.data)
			}
			for _, n := range names(t, filepath.Dir(w.Path(tt.rel))) {
				if n != filepath.Base(tt.rel) && !strings.HasPrefix(n, ".") {
					t.Fatalf("stray non-dot file %q next to %s", n, tt.rel)
				}
			}
		})
	}
}

func TestWriteFileRefusesOutside(t *testing.T) {
	w := newWS(t)
	outside := t.TempDir()
	symlink(t, outside, w.Path("out"))
	for _, rel := range []string{"../x", "/tmp/x", "out/x", "out/deep/x"} {
		t.Run(rel, func(t *testing.T) {
			if err := w.WriteFile(rel, []byte("x")); !errors.Is(err, ErrOutside) {
				t.Fatalf("WriteFile(%q) = %v, want ErrOutside", rel, err)
			}
		})
	}
	if got := names(t, outside); len(got) != 0 {
		t.Fatalf("files written outside the workspace: %v", got)
	}
}

func TestSequenceName(t *testing.T) {
	tests := []struct {
		n    int
		want string
	}{
		{0, "20250101120000.md"},
		{1, "20250101120000_01.md"},
		{9, "20250101120000_09.md"},
		{10, "20250101120000_10.md"},
		{99, "20250101120000_99.md"},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.n), func(t *testing.T) {
			if got := SequenceName("20250101120000", tt.n, ".md"); got != tt.want {
				t.Fatalf("SequenceName(id, %d, .md) = %q, want %q", tt.n, got, tt.want)
			}
		})
	}
}

const histDir = "artifacts/20250101000000_t/histories"

func TestClaimSequenced(t *testing.T) {
	const id = ID("20250101120000")
	w := newWS(t)
	mkdir(t, w.Path(histDir))
	for n := 0; n <= MaxSequence; n++ {
		data := fmt.Sprintf("log %d\n", n)
		rel, err := w.ClaimSequenced(histDir, id, ".md", []byte(data))
		want := histDir + "/" + SequenceName(id, n, ".md")
		if err != nil || rel != want {
			t.Fatalf("ClaimSequenced #%d = %q, %v, want %q", n, rel, err, want)
		}
		if b, err := os.ReadFile(w.Path(rel)); err != nil || string(b) != data {
			t.Fatalf("%s = %q, %v, want %q", rel, b, err, data)
		}
		if fi, err := os.Stat(w.Path(rel)); err != nil || fi.Mode().Perm() != 0o644 {
			t.Fatalf("%s mode = %v, %v, want 0644", rel, fi.Mode(), err)
		}
	}
	rel, err := w.ClaimSequenced(histDir, id, ".md", []byte("one too many"))
	if !errors.Is(err, ErrSequenceFull) {
		t.Fatalf("ClaimSequenced #100 = %q, %v, want ErrSequenceFull", rel, err)
	}
	got := names(t, w.Path(histDir))
	if len(got) != MaxSequence+1 {
		t.Fatalf("%d files after filling the sequence, want %d (temp files left?): %v", len(got), MaxSequence+1, got)
	}
	// Nothing was clobbered.
	if b, _ := os.ReadFile(w.Path(histDir, "20250101120000.md")); string(b) != "log 0\n" {
		t.Fatalf("first log = %q after sequence full, want log 0", b)
	}
	// Another ID is unaffected.
	if rel, err := w.ClaimSequenced(histDir, "20250101120001", ".md", nil); err != nil || rel != histDir+"/20250101120001.md" {
		t.Fatalf("ClaimSequenced(other id) = %q, %v", rel, err)
	}
}

func TestClaimSequencedSkipsExisting(t *testing.T) {
	const id = ID("20250101120000")
	tests := []struct {
		name     string
		existing []int
		want     int // -1 = full
	}{
		{"none", nil, 0},
		{"base", []int{0}, 1},
		{"gap kept", []int{0, 2}, 1},
		{"base missing", []int{1, 2}, 0},
		{"only 99 free", seq(0, 98), 99},
		{"all but base", seq(1, 99), 0},
		{"full", seq(0, 99), -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWS(t)
			mkdir(t, w.Path(histDir))
			for _, n := range tt.existing {
				if err := os.WriteFile(w.Path(histDir, SequenceName(id, n, ".md")), []byte("old"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			rel, err := w.ClaimSequenced(histDir, id, ".md", []byte("new"))
			if tt.want < 0 {
				if !errors.Is(err, ErrSequenceFull) {
					t.Fatalf("ClaimSequenced = %q, %v, want ErrSequenceFull", rel, err)
				}
			} else if want := histDir + "/" + SequenceName(id, tt.want, ".md"); err != nil || rel != want {
				t.Fatalf("ClaimSequenced = %q, %v, want %q", rel, err, want)
			}
			for _, n := range tt.existing {
				if b, _ := os.ReadFile(w.Path(histDir, SequenceName(id, n, ".md"))); string(b) != "old" {
					t.Fatalf("existing %s clobbered: %q", SequenceName(id, n, ".md"), b)
				}
			}
			for _, n := range names(t, w.Path(histDir)) {
				if strings.HasPrefix(n, ".") {
					t.Fatalf("temp file %q left behind", n)
				}
			}
		})
	}
}

func seq(a, b int) []int {
	var out []int
	for i := a; i <= b; i++ {
		out = append(out, i)
	}
	return out
}

func TestClaimSequencedDanglingSymlinkNotClobbered(t *testing.T) {
	const id = ID("20250101120000")
	w := newWS(t)
	mkdir(t, w.Path(histDir))
	target := filepath.Join(t.TempDir(), "target")
	symlink(t, target, w.Path(histDir, "20250101120000.md"))
	rel, err := w.ClaimSequenced(histDir, id, ".md", []byte("x"))
	if err != nil || rel != histDir+"/20250101120000_01.md" {
		t.Fatalf("ClaimSequenced next to a dangling symlink = %q, %v, want _01", rel, err)
	}
	if _, err := os.Lstat(target); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("write went through the symlink: %v", err)
	}
}

func TestClaimSequencedConcurrent(t *testing.T) {
	const id = ID("20250101120000")
	const n = 16
	w := newWS(t)
	mkdir(t, w.Path(histDir))
	var wg sync.WaitGroup
	rels := make([]string, n)
	errs := make([]error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Large enough that a torn write would show.
			data := bytes.Repeat([]byte(fmt.Sprintf("writer %02d\n", i)), 20000)
			rels[i], errs[i] = w.ClaimSequenced(histDir, id, ".md", data)
		}()
	}
	wg.Wait()
	seen := map[string]int{}
	for i := range n {
		if errs[i] != nil {
			t.Fatalf("writer %d: ClaimSequenced = %v", i, errs[i])
		}
		if j, dup := seen[rels[i]]; dup {
			t.Fatalf("writers %d and %d both got %s", j, i, rels[i])
		}
		seen[rels[i]] = i
		want := bytes.Repeat([]byte(fmt.Sprintf("writer %02d\n", i)), 20000)
		if b, err := os.ReadFile(w.Path(rels[i])); err != nil || !bytes.Equal(b, want) {
			t.Fatalf("writer %d: %s holds %d bytes (%v), want its whole %d bytes", i, rels[i], len(b), err, len(want))
		}
	}
	got := names(t, w.Path(histDir))
	want := make([]string, n)
	for i := range n {
		want[i] = SequenceName(id, i, ".md")
	}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("folder holds %v, want %v", got, want)
	}
}

func TestClaimSequencedRefusesOutside(t *testing.T) {
	w := newWS(t)
	outside := t.TempDir()
	symlink(t, outside, w.Path("artifacts"))
	mkdir(t, filepath.Join(outside, "t", "histories"))
	if rel, err := w.ClaimSequenced("artifacts/t/histories", "20250101120000", ".md", []byte("x")); !errors.Is(err, ErrOutside) {
		t.Fatalf("ClaimSequenced through a symlink leaving the workspace = %q, %v, want ErrOutside", rel, err)
	}
	if got := names(t, filepath.Join(outside, "t", "histories")); len(got) != 0 {
		t.Fatalf("files written outside: %v", got)
	}
}

func TestRename(t *testing.T) {
	w := newWS(t)
	write := func(rel, data string) {
		t.Helper()
		if err := w.WriteFile(rel, []byte(data)); err != nil {
			t.Fatal(err)
		}
	}
	write("stats/deep_work/20250101120000.txt", "a")
	if err := w.Rename("stats/deep_work/20250101120000.txt", "stats/deep_work/20250101120000.completed.txt"); err != nil {
		t.Fatalf("Rename to a free name = %v", err)
	}
	if b, err := os.ReadFile(w.Path("stats/deep_work/20250101120000.completed.txt")); err != nil || string(b) != "a" {
		t.Fatalf("renamed file = %q, %v, want a", b, err)
	}
	if _, err := os.Stat(w.Path("stats/deep_work/20250101120000.txt")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("old name still there: %v", err)
	}

	write("themebox/x.md", "new")
	write("themebox/processed.x.md", "old")
	if err := w.Rename("themebox/x.md", "themebox/processed.x.md"); !errors.Is(err, os.ErrExist) {
		t.Fatalf("Rename onto an existing file = %v, want os.ErrExist", err)
	}
	for rel, want := range map[string]string{"themebox/x.md": "new", "themebox/processed.x.md": "old"} {
		if b, _ := os.ReadFile(w.Path(rel)); string(b) != want {
			t.Fatalf("after refused Rename, %s = %q, want %q", rel, b, want)
		}
	}

	if err := w.Rename("themebox/x.md", "../x.md"); !errors.Is(err, ErrOutside) {
		t.Fatalf("Rename out of the workspace = %v, want ErrOutside", err)
	}
	if err := w.Rename("themebox/missing.md", "themebox/y.md"); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("Rename of a missing file = %v, want os.ErrNotExist", err)
	}

	mkdir(t, w.Path("stats/extended_processing"))
	if err := w.Rename("stats/extended_processing", "stats/extended_processing.migrated"); err != nil {
		t.Fatalf("Rename of a folder = %v", err)
	}
}

// TestRenameConcurrentNeverClobbers races two renames onto one name: exactly
// one may win, and the loser's file must still exist under its old name.
func TestRenameConcurrentNeverClobbers(t *testing.T) {
	w := newWS(t)
	mkdir(t, w.Path("stats/deep_work"))
	for round := range 300 {
		dst := fmt.Sprintf("stats/deep_work/%d.completed.txt", round)
		srcs := []string{fmt.Sprintf("stats/deep_work/%d.a", round), fmt.Sprintf("stats/deep_work/%d.b", round)}
		for _, s := range srcs {
			if err := os.WriteFile(w.Path(s), []byte(s), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		var wg sync.WaitGroup
		errs := make([]error, 2)
		for i, s := range srcs {
			wg.Add(1)
			go func() { defer wg.Done(); errs[i] = w.Rename(s, dst) }()
		}
		wg.Wait()
		ok := 0
		for _, err := range errs {
			if err == nil {
				ok++
			} else if !errors.Is(err, os.ErrExist) {
				t.Fatalf("round %d: Rename = %v, want nil or os.ErrExist", round, err)
			}
		}
		left := 0
		for _, s := range srcs {
			if _, err := os.Stat(w.Path(s)); err == nil {
				left++
			}
		}
		if ok != 1 || left != 1 {
			t.Fatalf("round %d: %d renames succeeded and %d sources are left (errors %v); want 1 and 1: a file was lost", round, ok, left, errs)
		}
	}
}

// A replaced file keeps its mode, its temp made with it (no chmod at
// every pulse, and a 0600 file's new content never sits in a 0644 temp).
func TestReplaceKeepsTheFilesMode(t *testing.T) {
	w := newWS(t)
	rel := "stats/private.json"
	if err := w.WriteFile(rel, []byte("{}\n")); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(w.Path(rel), 0o600); err != nil {
		t.Fatal(err)
	}
	var staged []os.FileMode
	old := midWrite
	midWrite = func() {
		ents, _ := os.ReadDir(w.Path("stats"))
		for _, e := range ents {
			if strings.HasPrefix(e.Name(), ".stage-") {
				if fi, err := e.Info(); err == nil {
					staged = append(staged, fi.Mode().Perm())
				}
			}
		}
	}
	t.Cleanup(func() { midWrite = old })
	for _, write := range []func(string, []byte) error{w.WriteFile, w.WriteFileNoSync} {
		staged = nil
		if err := write(rel, []byte(`{"a":1}`+"\n")); err != nil {
			t.Fatal(err)
		}
		if len(staged) != 1 || staged[0] != 0o600 {
			t.Errorf("staged modes %v, want [-rw-------]", staged)
		}
		if fi, err := os.Stat(w.Path(rel)); err != nil || fi.Mode().Perm() != 0o600 {
			t.Errorf("after the write: %v, %v; want 0600 kept", fi.Mode(), err)
		}
	}
}
