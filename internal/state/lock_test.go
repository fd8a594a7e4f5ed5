package state

import (
	"errors"
	"fmt"
	"github.com/ai-heart/ai-heart/internal/testutil"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/config"
)

// TestLive: a fresh state file proves nothing without the lock a running
// watchdog holds, held by the process it names; impossible times are
// refused even with it.
func TestLive(t *testing.T) {
	ws := filepath.Join(t.TempDir(), "state", "alice-0000") // the agent's state folder, made by Lock
	now := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	fresh := State{PID: os.Getpid(), StartedAt: now.Add(-time.Hour), PulseAt: now.Add(-time.Second), PulseInterval: config.Duration(time.Minute)}
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
	if runtime.GOOS == "linux" {
		other := fresh
		other.PID = 1
		if ok, why := other.Live(ws, now); ok || !strings.Contains(why, "pid 1") {
			t.Fatalf("Live(fresh state naming pid 1, lock held by pid %d) = %v, %q; want false naming pid 1", os.Getpid(), ok, why)
		}
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

// TestLockHeldByAnotherProgram: a lock held by a program that is not a
// watchdog (flock, as an agent of the same user can run) is named, pid and
// program, both to a new watchdog and to status, and a state file naming
// that very pid is no live watchdog's.
func TestLockHeldByAnotherProgram(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("only Linux names a lock's holder (/proc/locks)")
	}
	flockBin, err := exec.LookPath("flock")
	if err != nil {
		t.Skip("flock (util-linux) is not installed")
	}
	dir := filepath.Join(t.TempDir(), "alice-0000")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	// Its own process group, ended whole: flock's sleep child goes too.
	cmd := testutil.Start(t, exec.Command(flockBin, "-x", filepath.Join(dir, LockFile), "sleep", "600")).Cmd
	for deadline := time.Now().Add(10 * time.Second); !Held(dir); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("flock never took the lock")
		}
	}
	holder := fmt.Sprintf("pid %d (flock)", cmd.Process.Pid)
	_, err = Lock(dir)
	if !errors.Is(err, ErrLockTaken) || errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), holder) {
		t.Fatalf("Lock = %v, want ErrLockTaken naming %s", err, holder)
	}
	now := time.Now()
	forged := State{PID: cmd.Process.Pid, StartedAt: now.Add(-time.Minute), PulseAt: now, PulseInterval: config.Duration(time.Hour)}
	if ok, why := forged.Live(dir, now); ok || !strings.Contains(why, holder) || !strings.Contains(why, "not a watchdog") {
		t.Fatalf("Live(state naming flock's pid) = %v, %q; want false: %s is not a watchdog", ok, why, holder)
	}
}
