package telemetry

import (
	"os"
	"path/filepath"
	"sync"
	"testing"
)

func TestLoadKey(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "agent", KeyFile)
	if _, err := LoadKey(p, false); err == nil {
		t.Fatal("a missing key read without create")
	}
	k, err := LoadKey(p, true)
	if err != nil || len(k) != keyLen {
		t.Fatalf("made %q, %v", k, err)
	}
	if fi, _ := os.Stat(p); fi.Mode().Perm() != 0o600 {
		t.Fatalf("key file mode %v, want 0600", fi.Mode().Perm())
	}
	if again, err := LoadKey(p, true); again != k || err != nil {
		t.Fatalf("second load %q %v, want the same key", again, err)
	}
	if !SameKey(k, k) || SameKey("", "") || SameKey(k[:31]+"x", k) {
		t.Fatal("SameKey")
	}
	// A link planted at the key's name is not followed, nor a junk file taken.
	os.Remove(p)
	target := filepath.Join(dir, "elsewhere")
	os.WriteFile(target, []byte("0123456789abcdef0123456789abcdef\n"), 0o600)
	os.Symlink(target, p)
	if k, err := LoadKey(p, true); err == nil {
		t.Fatalf("a link at the key's name was taken: %q", k)
	}
	os.Remove(p)
	os.WriteFile(p, []byte("guess\n"), 0o600)
	if _, err := LoadKey(p, true); err == nil {
		t.Fatal("a file that is no key was taken")
	}
}

// Two starts making the key at once (a reload beside a second watchdog):
// the one that loses the exclusive create reads the winner's key, and both
// get the same key, never an error.
func TestLoadKeyMadeMeanwhile(t *testing.T) {
	for trial := range 100 {
		path := filepath.Join(t.TempDir(), "agent", KeyFile)
		const n = 4
		var (
			wg    sync.WaitGroup
			start = make(chan struct{})
			keys  [n]string
			errs  [n]error
		)
		for i := range n {
			wg.Go(func() {
				<-start
				keys[i], errs[i] = LoadKey(path, true)
			})
		}
		close(start)
		wg.Wait()
		for i := range n {
			if errs[i] != nil {
				t.Fatalf("trial %d: start %d: %v", trial, i, errs[i])
			}
			if keys[i] != keys[0] {
				t.Fatalf("trial %d: start %d got key %q, start 0 %q", trial, i, keys[i], keys[0])
			}
		}
	}
}
