package asks

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The hook believes a socket only when the process listening on it is the
// socket's owner: as root, the test gives the socket to another user, so
// the listener (root) is no longer its owner.
func TestHookBelievesOnlyTheSocketsOwner(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("needs root to give the socket to another user")
	}
	d := newDesk(t, time.Minute)
	if err := os.Chown(d.sock, 65534, -1); err != nil {
		t.Fatal(err)
	}
	_, dec, err := Hold(d.sock, d.ask("Bash", `{}`), time.Minute)
	if !errors.Is(err, ErrNotTheWatchdog) || dec != nil {
		t.Fatalf("Hold = %v, %v; want ErrNotTheWatchdog", dec, err)
	}
	if len(d.book.Pending()) != 0 {
		t.Fatal("the hook asked a socket it does not believe")
	}
}

// A socket in a folder others can write could be swapped for theirs.
func TestHookRefusesASwappableFolder(t *testing.T) {
	if !Supported {
		t.Skip("asks need Linux")
	}
	open := filepath.Join(t.TempDir(), "open")
	if err := os.Mkdir(open, 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(open, 0o777); err != nil { // past the umask
		t.Fatal(err)
	}
	b := NewBook("luna", time.Minute, nil)
	s := &Server{Book: b, Workspace: "/ws"}
	sock := filepath.Join(open, "asks.sock")
	if err := s.Listen(sock); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	_, _, err := Hold(sock, Ask{Tool: "Bash", Workspace: "/ws"}, time.Minute)
	if !errors.Is(err, ErrNotTheWatchdog) || !strings.Contains(err.Error(), "mode 0777") {
		t.Fatalf("Hold = %v; want the folder refused", err)
	}
}

// A socket path longer than a socket address takes is reached through
// its folder.
func TestLongSocketPath(t *testing.T) {
	if !Supported {
		t.Skip("asks need Linux")
	}
	dir := filepath.Join(t.TempDir(), strings.Repeat("d", 60), strings.Repeat("e", 60))
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	b := NewBook("luna", time.Minute, nil)
	s := &Server{Book: b, Workspace: "/ws"}
	sock := filepath.Join(dir, "asks.sock")
	if err := s.Listen(sock); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if rep, err := Call(sock, Request{Op: OpList}, 2*time.Second); err != nil || rep.Asks == nil && rep.Error != "" {
		t.Fatalf("list over a %d-byte path: %+v, %v", len(sock), rep, err)
	}
	s.Close()
	if _, err := os.Lstat(sock); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the socket is left after Close: %v", err)
	}
}

func TestLinks(t *testing.T) {
	now := time.Date(2026, 12, 7, 14, 0, 0, 0, time.UTC)
	l := NewLinks()
	tok := l.Mint("luna", "abcd2345", now.Add(10*time.Minute))
	if a, id, err := l.Verify(tok, now); err != nil || a != "luna" || id != "abcd2345" {
		t.Fatalf("Verify = %q %q %v", a, id, err)
	}
	if _, _, err := l.Verify(tok, now.Add(10*time.Minute)); !errors.Is(err, ErrLink) {
		t.Fatalf("an expired link: %v", err)
	}
	if _, _, err := NewLinks().Verify(tok, now); !errors.Is(err, ErrLink) {
		t.Fatalf("a link of another key (another run): %v", err)
	}
	b := []byte(tok)
	b[3] ^= 1
	if _, _, err := l.Verify(string(b), now); !errors.Is(err, ErrLink) {
		t.Fatalf("a tampered link: %v", err)
	}
	other := l.Mint("luna", "abcd2346", now.Add(time.Minute))
	if other == tok {
		t.Fatal("two questions share a link")
	}
}
