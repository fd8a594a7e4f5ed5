//go:build unix

package main

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/rs/zerolog"

	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/daemon"
	"github.com/ai-heart/ai-heart/internal/web"
)

// TestWindowLogReadsThroughTheWorkspaceRoot: the page's log view reads
// through the daemon's workspace: a log inside is served, a histories
// folder linked out of the workspace, a log linked out and a FIFO in a
// log's place are refused without blocking, and an agent the daemon does
// not run is unknown.
func TestWindowLogReadsThroughTheWorkspaceRoot(t *testing.T) {
	ws := filepath.Join(t.TempDir(), "ai-works")
	outside := t.TempDir()
	hist := filepath.Join(ws, "artifacts", "20261127090000_t", "histories")
	for _, d := range []string{hist, filepath.Join(ws, "artifacts", "20261127090000_out")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(path, s string) {
		if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(hist, "20261127090000.md"), "inside")
	write(filepath.Join(outside, "secret.md"), "outside")
	if err := os.Symlink(outside, filepath.Join(ws, "artifacts", "20261127090000_out", "histories")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "secret.md"), filepath.Join(hist, "20261127090100.md")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(hist, "20261127090200.md"), 0o644); err != nil {
		t.Fatal(err)
	}

	cfg, err := config.Parse([]byte("pulse: {interval: 1h}\nschedule: {every: 0s}\n"))
	if err != nil {
		t.Fatal(err)
	}
	cfg.Workspace, cfg.Name = ws, "tester"
	d, err := daemon.New(cfg, daemon.Options{Log: zerolog.Nop()})
	if err != nil {
		t.Fatal(err)
	}
	w := &window{cfg: cfg, d: d}

	if b, err := w.Log("tester", "artifacts/20261127090000_t/histories/20261127090000.md"); err != nil || string(b) != "inside" {
		t.Fatalf("Log of a log inside = %q, %v, want inside", b, err)
	}
	for _, rel := range []string{
		"artifacts/20261127090000_out/histories/secret.md",
		"artifacts/20261127090000_t/histories/20261127090100.md",
		"artifacts/20261127090000_t/histories/20261127090200.md",
	} {
		if b, err := w.Log("tester", rel); err == nil {
			t.Errorf("Log(%s) = %q, want it refused", rel, b)
		}
	}
	if _, err := w.Log("nobody", "artifacts/x/histories/y.md"); !errors.Is(err, web.ErrUnknownAgent) {
		t.Errorf("Log of an unknown agent = %v, want ErrUnknownAgent", err)
	}
}
