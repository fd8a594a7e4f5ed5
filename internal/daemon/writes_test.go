package daemon

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/rs/zerolog"

	"github.com/ai-heart/ai-heart/internal/alert"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestFailingWritesAreAnAlert: while the heartbeat ID cannot be written
// (here a folder sits at its path, so every write of it fails for real),
// one error alert goes out, not one per pulse; the state says so and counts
// every failed write; the log says it once, not every pulse. Once the ID is
// writable again the watchdog recovers by itself, with an ok alert.
func TestFailingWritesAreAnAlert(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig(t)
		alerts := filepath.Join(t.TempDir(), "alerts.jsonl")
		var logs syncBuffer
		sink, err := alert.NewSink(zerolog.New(&logs), alerts)
		if err != nil {
			t.Fatal(err)
		}
		defer sink.Close()
		d, err := New(cfg, Options{Log: zerolog.New(&logs), Alerts: sink, ScanPoll: true})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { defer close(done); d.Run(ctx) }()
		defer func() { cancel(); <-done }()
		ws, _ := workspace.New(cfg.Workspace, nil)
		time.Sleep(250 * time.Millisecond)
		synctest.Wait()

		if err := os.Remove(ws.Path(workspace.CurrentIDFile)); err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Join(ws.Path(workspace.CurrentIDFile), "x"), 0o755); err != nil {
			t.Fatal(err)
		}
		time.Sleep(2 * time.Second) // 20 pulses
		synctest.Wait()
		pl := d.Statuses()[0].Chambers.Pulse
		if pl.WritesFailing == nil || pl.WritesFailing.What != "heartbeat ID" || pl.WriteFailures < 15 {
			t.Fatalf("pulse chamber %+v (failing %+v), want a spell of the heartbeat ID failing and ~20 failures", pl, pl.WritesFailing)
		}
		if n := alertsWith(t, alerts, "writes", "cannot write its heartbeat ID"); n != 1 {
			t.Fatalf("%d writes alerts, want 1: %v", n, alertsOf(t, alerts))
		}
		if n := strings.Count(logs.String(), "write failed"); n != 1 {
			t.Fatalf("%d log lines of the failed write over 20 pulses, want 1:\n%s", n, logs.String())
		}

		if err := os.RemoveAll(ws.Path(workspace.CurrentIDFile)); err != nil {
			t.Fatal(err)
		}
		time.Sleep(300 * time.Millisecond)
		synctest.Wait()
		if pl := d.Statuses()[0].Chambers.Pulse; pl.WritesFailing != nil {
			t.Fatalf("still failing after the ID became writable: %+v", pl.WritesFailing)
		}
		if n := alertsWith(t, alerts, "writes", "writes succeed again"); n != 1 {
			t.Fatalf("%d recovery alerts, want 1: %v", n, alertsOf(t, alerts))
		}
		if _, err := ws.ReadCurrentID(); err != nil {
			t.Fatalf("the heartbeat ID after recovery: %v", err)
		}
	})
}
