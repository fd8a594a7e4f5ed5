package daemon

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/ai-heart/ai-heart/internal/hook"
	"github.com/ai-heart/ai-heart/internal/state"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// A forged flood of the hooks' spool (19 MiB of tool calls) before a real
// end of turn: the next pulse sees the turn ended (the newest events are
// read first), and the flood is a warning alert.
func TestHookFloodIsAlertedAndTheNewestStopCounts(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig(t) // pulse 100ms
		h := startFake(t, cfg, nil)
		ws, _ := workspace.New(cfg.Workspace, nil)
		time.Sleep(150 * time.Millisecond)
		synctest.Wait()
		said(t, ws, hook.Event{Kind: hook.TurnStart})
		time.Sleep(100 * time.Millisecond)
		synctest.Wait()
		if c := h.state().Client; c == nil || c.Mode != state.ClientInTurn {
			t.Fatalf("client = %+v, want in a turn", c)
		}
		f, err := os.OpenFile(filepath.Join(ws.Root, filepath.FromSlash(hook.SpoolFile(time.Now()))), os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			t.Fatal(err)
		}
		line := `{"t":"` + time.Now().UTC().Format(time.RFC3339Nano) + `","client":"claude-code","name":"PreToolUse","kind":"tool","tool":"Bash"}` + "\n"
		chunk := []byte(strings.Repeat(line, (1<<20)/len(line)))
		for range 19 {
			if _, err := f.Write(chunk); err != nil {
				t.Fatal(err)
			}
		}
		f.Close()
		said(t, ws, hook.Event{Kind: hook.TurnEnd})
		time.Sleep(100 * time.Millisecond)
		synctest.Wait()
		if c := h.state().Client; c == nil || c.Mode != state.ClientWaiting {
			t.Errorf("client one pulse after the real Stop = %+v, want waiting: the flood delayed it", c)
		}
		if !h.hasAlert("hooks", "warning") {
			t.Errorf("no hooks warning for a 19 MiB flood: %v", alertsOf(t, h.alerts))
		}
	})
}
