package pause

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestSetReadClear(t *testing.T) {
	path := filepath.Join(t.TempDir(), "alice-0a1b2c3d", "pause.json")
	now := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	if p, err := Read(path); p != nil || err != nil {
		t.Fatalf("no file: %v %v", p, err)
	}
	if err := Set(path, Pause{Since: now, Until: now.Add(-time.Minute)}); err == nil {
		t.Fatal("pause ending in the past accepted")
	}
	if err := Set(path, Pause{Since: now, Until: now.Add(2 * time.Hour), Reason: "maintenance"}); err != nil {
		t.Fatal(err)
	}
	for p, want := range map[string]os.FileMode{path: 0o600, filepath.Dir(path): 0o700} {
		if fi, err := os.Stat(p); err != nil || fi.Mode().Perm() != want {
			t.Fatalf("%s: mode %v, %v; want %v (the pause is the operator's)", p, fi.Mode().Perm(), err, want)
		}
	}
	p, err := Read(path)
	if err != nil || p.Reason != "maintenance" || !p.Active(now.Add(time.Hour)) || p.Active(now.Add(2*time.Hour)) {
		t.Fatalf("read back %+v %v", p, err)
	}
	if err := Clear(path); err != nil {
		t.Fatal(err)
	}
	if err := Clear(path); err != nil {
		t.Fatalf("second clear: %v", err)
	}
	if p, _ := Read(path); p.Active(now) {
		t.Fatal("still paused after clear")
	}
}

// A file nobody can read holds nothing off: garbage, an empty object and a
// FIFO are errors and no pause (before, garbage meant "stay paused", so
// anything written there silenced the watchdog).
func TestDamagedIsNoPause(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{"garbage": "{nope", "empty": "{}", "words": "pause please"} {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		if p, err := Read(path); p != nil || err == nil {
			t.Errorf("%s: read %+v, %v; want no pause and an error", name, p, err)
		}
	}
}
