package delivery

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/pane"
)

// Every key waits for the look: while it says no, the pane receives
// nothing (a wakeup, an Escape); once it says yes they go in. The
// recorder echoes nothing, as a client that never shows the wakeup: the
// delivery is not received, unless the hooks heard the prompt.
func TestTmuxKeysWaitForTheLook(t *testing.T) {
	s := newTmuxServer(t)
	file := s.recorder(t, "agent", false)
	d := NewTmux("agent", s.socket)
	d.EnterDelay, d.LookEvery, d.Confirm = 10*time.Millisecond, 10*time.Millisecond, 300*time.Millisecond
	var dialog atomic.Bool
	dialog.Store(true)
	d.Look = func(screen string, p pane.Purpose) pane.Verdict {
		if dialog.Load() {
			return pane.Verdict{Why: "a dialog"}
		}
		return pane.Verdict{OK: true}
	}
	waits := make(chan string, 16)
	d.Waits = func(why string) { waits <- why }
	ctx := context.Background()

	delivered := make(chan error, 1)
	go func() { _, err := d.Deliver(ctx, "Heartbeat: 20261207120000"); delivered <- err }()
	interrupted := make(chan error, 1)
	go func() { interrupted <- d.Cancel(ctx) }()
	for range 2 {
		if why := <-waits; why != "a dialog" {
			t.Fatalf("waits %q, want the dialog", why)
		}
	}
	s.waitReceived(t, "agent", file, "") // nothing went in while the dialog stood

	dialog.Store(false)
	if err := <-interrupted; err != nil {
		t.Fatal(err)
	}
	err := <-delivered
	if !errors.Is(err, ErrNotReceived) {
		t.Fatalf("a wakeup the client never showed: %v, want ErrNotReceived", err)
	}
	// After the first fence: the Escape and the wakeup with its Enter, in
	// whichever order the two took the pane.
	s.tmux(t, "send-keys", "-t", "agent", "-l", "--", fence)
	got := string(waitFile(t, file, func(b []byte) bool { return bytes.Count(b, []byte(fence)) == 2 }))
	after := strings.TrimSuffix(strings.TrimPrefix(got, fence), fence)
	if after != "\x1bHeartbeat: 20261207120000\r" && after != "Heartbeat: 20261207120000\r\x1b" {
		t.Fatalf("once the dialog went the pane received %q", after)
	}

	// The hooks' receipt stands for the pane's.
	d.Heard = func(since time.Time) bool { return true }
	if _, err := d.Deliver(ctx, "Heartbeat: 20261207120001"); err != nil {
		t.Fatalf("a wakeup the hooks heard: %v", err)
	}
}
