package delivery

import (
	"context"
	"errors"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/ai-heart/ai-heart/internal/workspace"
)

func newWorkspace(t *testing.T) *workspace.Workspace {
	t.Helper()
	ws, err := workspace.New(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	return ws
}

func TestInboxWritesPrompt(t *testing.T) {
	tests := []struct {
		name    string
		prompts []string // delivered in order; the last one must be the file
	}{
		{name: "one line", prompts: []string{"Heartbeat: 20250101120000"}},
		{name: "no trailing newline added", prompts: []string{"Heartbeat: 20250101120000\n\nWarning: no activity log for 6m.\nUse create_activity_log."}},
		{name: "japanese", prompts: []string{"ハートビート: 20250101120000\n内省の時間です"}},
		{name: "replaces older prompt", prompts: []string{strings.Repeat("long old prompt\n", 100), "short"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ws := newWorkspace(t)
			in := NewInbox(ws)
			for _, p := range tt.prompts {
				res, err := in.Deliver(context.Background(), p)
				if err != nil {
					t.Fatalf("Deliver: %v", err)
				}
				if res.Reply != "" || res.ExitCode != 0 {
					t.Errorf("Deliver = %+v, want no reply and exit code 0", res)
				}
			}
			got, err := os.ReadFile(ws.Path(workspace.PromptFile))
			if err != nil {
				t.Fatal(err)
			}
			if want := tt.prompts[len(tt.prompts)-1]; string(got) != want {
				t.Errorf("%s = %q, want %q", workspace.PromptFile, got, want)
			}
			entries, err := os.ReadDir(ws.Path(workspace.StatsDir))
			if err != nil {
				t.Fatal(err)
			}
			if len(entries) != 1 {
				var names []string
				for _, e := range entries {
					names = append(names, e.Name())
				}
				t.Errorf("stats/ holds %v, want only heartbeat_prompt.md", names)
			}
		})
	}
}

// TestInboxAtomic reads the prompt file while it is being replaced: every
// read must see one whole prompt, never a torn or empty file.
func TestInboxAtomic(t *testing.T) {
	ws := newWorkspace(t)
	in := NewInbox(ws)
	a := strings.Repeat("A", 256<<10)
	b := strings.Repeat("B", 300<<10)
	if _, err := in.Deliver(context.Background(), a); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	var reads, bad int
	go func() {
		defer wg.Done()
		for {
			select {
			case <-done:
				return
			default:
			}
			got, err := os.ReadFile(ws.Path(workspace.PromptFile))
			reads++
			if err != nil || (string(got) != a && string(got) != b) {
				bad++
			}
		}
	}()
	for i := range 60 {
		p := a
		if i%2 == 0 {
			p = b
		}
		if _, err := in.Deliver(context.Background(), p); err != nil {
			t.Fatal(err)
		}
	}
	close(done)
	wg.Wait()
	if bad > 0 {
		t.Errorf("%d of %d concurrent reads saw a partial or missing prompt", bad, reads)
	}
}

func TestInboxCancelled(t *testing.T) {
	ws := newWorkspace(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := NewInbox(ws).Deliver(ctx, "x"); !errors.Is(err, context.Canceled) {
		t.Errorf("Deliver(cancelled) = %v, want context.Canceled", err)
	}
	if _, err := os.Stat(ws.Path(workspace.PromptFile)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("cancelled Deliver wrote %s", workspace.PromptFile)
	}
}

// A wakeup whose words are those the inbox already holds is not written
// again under a new ID: the agent that pulls the file would read the same
// prompt twice as two wakeups (a scheduled wakeup during recovery rewrote
// the unchanged recovery attempt). New words are written.
func TestInboxWritesOnlyWhatChanged(t *testing.T) {
	ws := newWorkspace(t)
	in := NewInbox(ws)
	body := "\n\n[error] recovery: RECOVERY (attempt 2 of 3): the watchdog detected a problem."
	read := func() string {
		t.Helper()
		b, err := os.ReadFile(ws.Path(workspace.PromptFile))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	for _, p := range []string{"Heartbeat: 20250101120009" + body, "Heartbeat: 20250101120010" + body} {
		if _, err := in.Deliver(context.Background(), p); err != nil {
			t.Fatal(err)
		}
	}
	if got := read(); got != "Heartbeat: 20250101120009"+body {
		t.Errorf("the unchanged prompt was written again under a new ID: %q", got)
	}
	next := "Heartbeat: 20250101120011\n\n[error] recovery: RECOVERY (attempt 3 of 3): the watchdog detected a problem."
	if _, err := in.Deliver(context.Background(), next); err != nil {
		t.Fatal(err)
	}
	if got := read(); got != next {
		t.Errorf("a new prompt was not written: %q", got)
	}
}
