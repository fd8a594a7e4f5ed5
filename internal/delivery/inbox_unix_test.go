//go:build unix

package delivery

import (
	"context"
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/workspace"
)

// The agent can put a FIFO where the prompt goes: the comparison never
// blocks on it, and the prompt is written.
func TestInboxComparesWithoutBlockingOnAFIFO(t *testing.T) {
	ws := newWorkspace(t)
	if err := os.MkdirAll(ws.Path(workspace.StatsDir), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(ws.Path(workspace.PromptFile), 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := NewInbox(ws).Deliver(context.Background(), "Heartbeat: 20250101120009\n\nhello")
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Deliver blocked on a FIFO in the prompt's place")
	}
	fi, err := os.Lstat(ws.Path(workspace.PromptFile))
	if err != nil || !fi.Mode().IsRegular() {
		t.Fatalf("the prompt is not a regular file after delivery: %v %v", fi, err)
	}
}
