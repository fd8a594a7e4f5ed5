//go:build unix

package delivery

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// otherUID owns the sockets and folders of another user in these tests.
const otherUID = 65534

// fakeServer listens on a unix socket as a tmux server would and keeps what
// the first client sent it.
type fakeServer struct {
	ln *net.UnixListener
}

func newFakeServer(t *testing.T, path string) *fakeServer {
	t.Helper()
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		t.Fatal(err)
	}
	ln.SetUnlinkOnClose(true)
	t.Cleanup(func() { ln.Close() })
	return &fakeServer{ln: ln}
}

// contacted returns what a client that connected before now sent (without
// waiting for one that did not), and whether one connected at all. A
// client's connect completes in the kernel's backlog, accepted or not, so
// one made before the deliverer returned is there.
func (s *fakeServer) contacted(t *testing.T) (string, bool) {
	t.Helper()
	rc, err := s.ln.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	nfd, aerr := -1, error(nil)
	// The listener is non-blocking: accept takes a queued connection or
	// fails at once (Go's Accept checks a past deadline before looking).
	if err := rc.Control(func(fd uintptr) { nfd, _, aerr = unix.Accept(int(fd)) }); err != nil {
		t.Fatal(err)
	}
	if aerr != nil {
		if !errors.Is(aerr, unix.EAGAIN) {
			t.Fatal(aerr)
		}
		return "", false
	}
	f := os.NewFile(uintptr(nfd), "client")
	defer f.Close()
	_ = unix.SetNonblock(nfd, true)
	_ = f.SetReadDeadline(time.Now().Add(time.Second))
	got, _ := io.ReadAll(f)
	return string(got), true
}

// TestTmuxNeverTalksToAnotherUsersServer: a tmux client obeys its server
// (it runs the "shell" the server names) and sends it its environment, so
// a tmux socket owned by another user (an agent's own server) is refused
// before the real tmux ever connects, with an error that names the owner.
func TestTmuxNeverTalksToAnotherUsersServer(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed")
	}
	if os.Geteuid() != 0 {
		t.Skip("needs root to give the socket to another user; TestTmuxSocketCheck covers the rule with an injected uid")
	}
	const marker = "AIHEART_T1_MARKER=hunter2"
	t.Setenv("AIHEART_T1_MARKER", "hunter2")
	sock := filepath.Join(t.TempDir(), "agent.sock")
	srv := newFakeServer(t, sock)
	if err := os.Chown(sock, otherUID, otherUID); err != nil {
		t.Fatal(err)
	}
	d := NewTmux("agent", sock)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second) // a tmux client waits for its server for ever
	defer cancel()
	_, err := d.Deliver(ctx, "Heartbeat: 1")
	if got, ok := srv.contacted(t); ok {
		t.Fatalf("the watchdog's tmux client connected to a server of uid %d and sent it %d bytes (its environment: %v); Deliver: %v",
			otherUID, len(got), strings.Contains(got, marker), err)
	}
	if !errors.Is(err, ErrTmuxUnsafe) {
		t.Fatalf("Deliver = %v, want ErrTmuxUnsafe", err)
	}
	for _, s := range []string{sock, "uid 65534"} {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("error %q does not name %q", err, s)
		}
	}
	if err := d.Interrupt(ctx); !errors.Is(err, ErrTmuxUnsafe) {
		t.Errorf("Interrupt = %v, want ErrTmuxUnsafe", err)
	}
}

// TestTmuxRefusesASwappableSocket: a socket of the watchdog's own is still
// refused where another user could put theirs in its place: in a folder
// (or under one) that others may write and that is not sticky. The same
// socket in a sticky folder, as /tmp, is the watchdog's.
func TestTmuxRefusesASwappableSocket(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed")
	}
	for _, tt := range []struct {
		name   string
		modes  []os.FileMode // of the folders from the temp folder down to the socket's
		refuse bool
	}{
		{name: "group-writable folder", modes: []os.FileMode{0o775}, refuse: true},
		{name: "world-writable folder above", modes: []os.FileMode{0o777, 0o700}, refuse: true},
		{name: "sticky world-writable folder", modes: []os.FileMode{0o777 | os.ModeSticky}},
		{name: "private folder", modes: []os.FileMode{0o700}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			for i, m := range tt.modes {
				dir = filepath.Join(dir, string(rune('a'+i)))
				if err := os.Mkdir(dir, 0o700); err != nil {
					t.Fatal(err)
				}
				if err := os.Chmod(dir, m); err != nil {
					t.Fatal(err)
				}
			}
			sock := filepath.Join(dir, "tmux.sock")
			srv := newFakeServer(t, sock)
			contacted, err := deliverTo(t, NewTmux("agent", sock), srv)
			if tt.refuse {
				if contacted || !errors.Is(err, ErrTmuxUnsafe) {
					t.Fatalf("tmux connected: %v; Deliver = %v; want ErrTmuxUnsafe and no connection", contacted, err)
				}
				if !strings.Contains(err.Error(), "writable") {
					t.Errorf("error %q does not say the folder is writable by others", err)
				}
				return
			}
			if !contacted {
				t.Fatalf("the watchdog's own socket was refused: Deliver = %v", err)
			}
		})
	}
}

// deliverTo delivers a wakeup through d to srv's socket, and reports
// whether tmux connected. A refusal returns at once, before tmux runs; a
// tmux that runs connects and then waits for an answer the stand-in never
// gives, so it is ended once the connection is seen.
func deliverTo(t *testing.T, d *Tmux, srv *fakeServer) (contacted bool, err error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { _, err := d.Deliver(ctx, "Heartbeat: 1"); done <- err }()
	deadline := time.Now().Add(10 * time.Second)
	for {
		select {
		case err := <-done:
			_, contacted := srv.contacted(t)
			return contacted, err
		default:
		}
		if _, ok := srv.contacted(t); ok {
			cancel()
			return true, <-done
		}
		if time.Now().After(deadline) {
			cancel()
			return false, fmt.Errorf("neither a refusal nor a connection in 10s: %w", <-done)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestTmuxSocketCheck: the rule itself, for a watchdog of any uid (the
// uid is the check's argument, so a test that cannot chown still sees a
// socket of "another user").
func TestTmuxSocketCheck(t *testing.T) {
	dir := t.TempDir()
	sock := filepath.Join(dir, "tmux.sock")
	newFakeServer(t, sock)
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.sock")
	if err := os.Symlink(sock, link); err != nil {
		t.Fatal(err)
	}
	me := os.Geteuid()
	for _, tt := range []struct {
		name, path string
		uid        int
		want       error  // nil: the check passes
		msg        string // in the error
		real       string // the path tmux is given when it passes
	}{
		{name: "own socket", path: sock, uid: me, real: sock},
		{name: "through a link, resolved", path: link, uid: me, real: sock},
		{name: "another user's socket", path: sock, uid: me + 1, want: ErrTmuxUnsafe, msg: "belongs to uid"},
		{name: "not a socket", path: file, uid: me, want: ErrTmuxUnsafe, msg: "not a socket"},
		{name: "no socket", path: filepath.Join(dir, "none.sock"), uid: me, want: ErrTmuxTarget, msg: "none.sock"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			real, err := checkSocket(tt.path, tt.uid)
			if tt.want == nil {
				if err != nil || real != tt.real {
					t.Fatalf("checkSocket(%s) = %q, %v; want %q", tt.path, real, err, tt.real)
				}
				return
			}
			if !errors.Is(err, tt.want) || !strings.Contains(err.Error(), tt.msg) {
				t.Fatalf("checkSocket(%s) = %v, want %v naming %q", tt.path, err, tt.want, tt.msg)
			}
		})
	}
}

// TestTmuxChecksTheSessionsSocket: without agent.tmux_socket, tmux takes
// the server from $TMUX when it is set (the watchdog started in a pane),
// with no check of its own: that socket is checked as a named one is.
func TestTmuxChecksTheSessionsSocket(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed")
	}
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o777); err != nil { // anyone could have put it there
		t.Fatal(err)
	}
	sock := filepath.Join(dir, "default")
	srv := newFakeServer(t, sock)
	t.Setenv("TMUX", sock+",4242,0")
	contacted, err := deliverTo(t, NewTmux("agent", ""), srv)
	if contacted || !errors.Is(err, ErrTmuxUnsafe) {
		t.Fatalf("tmux connected to $TMUX's server: %v; Deliver = %v; want ErrTmuxUnsafe", contacted, err)
	}
}
