package telemetry

import (
	"os"
	"path/filepath"
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
