package state

import (
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/config"
)

// TestLive: a fresh state file proves nothing without the lock a running
// watchdog holds, and impossible times are refused even with it.
func TestLive(t *testing.T) {
	ws := filepath.Join(t.TempDir(), "state", "alice-0000") // the agent's state folder, made by Lock
	now := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	fresh := State{PID: 1, StartedAt: now.Add(-time.Hour), PulseAt: now.Add(-time.Second), PulseInterval: config.Duration(time.Minute)}
	if ok, why := fresh.Live(ws, now); ok || why == "" {
		t.Fatalf("Live(forged fresh state, no lock) = %v, %q; want false with a reason", ok, why)
	}
	l, err := Lock(ws)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Unlock()
	if ok, why := fresh.Live(ws, now); !ok {
		t.Fatalf("Live(fresh state, lock held) = false, %q", why)
	}
	if _, err := Lock(ws); !errors.Is(err, ErrLocked) {
		t.Fatalf("a second Lock = %v, want ErrLocked", err)
	}
	future := fresh
	future.PulseAt, future.StartedAt = time.Date(2099, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(2099, 1, 1, 0, 0, 0, 0, time.UTC)
	if ok, _ := future.Live(ws, now); ok {
		t.Fatal("Live(a pulse in 2099) = true")
	}
	stale := fresh
	stale.PulseAt = now.Add(-5 * time.Minute)
	if ok, _ := stale.Live(ws, now); ok {
		t.Fatal("Live(a pulse 5 intervals old) = true")
	}
}
