package daemon

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// writeBadDeclaration leaves a declaration the watchdog cannot read: the
// next pulse renames it .invalid.txt and raises invalid_declaration for
// that one pulse.
func writeBadDeclaration(t *testing.T, ws *workspace.Workspace) {
	t.Helper()
	dir := ws.Path(workspace.DeepWorkDir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	name := workspace.DeepWorkName(workspace.NewID(time.Now()), workspace.Active)
	if err := os.WriteFile(filepath.Join(dir, name), []byte("not a declaration\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

func carries(prompts []string, i int, check string) bool {
	return i < len(prompts) && strings.Contains(prompts[i], "] "+check+": ")
}

// TestEventNoticeWaitsForTheNextWakeup: a notice that lasts one pulse
// (a declaration renamed invalid) reaches the next wakeup 20s later, once;
// one the agent answered by its own act (an activity log) is let go.
func TestEventNoticeWaitsForTheNextWakeup(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig(t)
		cfg.Schedule.Every = config.Duration(20 * time.Second)
		rec := &recorder{method: config.DeliveryExec}
		h := startFake(t, cfg, rec.factory)
		ws := h.ws()

		time.Sleep(5 * time.Second)
		writeBadDeclaration(t, ws)
		time.Sleep(time.Second)
		synctest.Wait()
		if !h.hasAlert("invalid_declaration", "warning") || !h.hasAlert("invalid_declaration", "ok") {
			t.Fatalf("want the declaration renamed and its check back to ok within a second; alerts %v", alertsOf(t, h.alerts))
		}
		time.Sleep(15 * time.Second) // the wakeup at 20s
		synctest.Wait()
		p := rec.prompts()
		if len(p) != 1 || !carries(p, 0, "invalid_declaration") {
			t.Fatalf("the wakeup at 20s = %q, want it to carry the invalid_declaration notice", p)
		}
		time.Sleep(20 * time.Second) // the wakeup at 40s: carried once is enough
		synctest.Wait()
		if p := rec.prompts(); len(p) != 2 || carries(p, 1, "invalid_declaration") {
			t.Fatalf("the wakeup at 40s = %q, want it without the notice the last one carried", p)
		}

		writeBadDeclaration(t, ws) // at 40s
		time.Sleep(2 * time.Second)
		writeLog(t, ws, workspace.Thinking) // the agent acted since
		time.Sleep(20 * time.Second)        // the wakeup at 60s
		synctest.Wait()
		if p := rec.prompts(); len(p) != 3 || carries(p, 2, "invalid_declaration") {
			t.Fatalf("the wakeup at 60s = %q, want no notice the agent's log made moot", p)
		}

		writeBadDeclaration(t, ws) // at 60s; a checkpoint's reply carries it
		time.Sleep(time.Second)
		synctest.Wait()
		st := h.state()
		if !carries(st.Notices, len(st.Notices)-1, "invalid_declaration") {
			t.Fatalf("state notices %q, want the held invalid_declaration notice for the tools to show", st.Notices)
		}
		time.Sleep(time.Second)
		writeCheckpoint(t, ws)
		time.Sleep(18 * time.Second) // the wakeup at 80s
		synctest.Wait()
		if p := rec.prompts(); len(p) != 4 || carries(p, 3, "invalid_declaration") {
			t.Fatalf("the wakeup at 80s = %q, want no notice a checkpoint's reply already carried", p)
		}
	})
}

// writeCheckpoint writes a checkpoint named and dated now (mtime set before
// it takes its name, as writeLog does).
func writeCheckpoint(t *testing.T, ws *workspace.Workspace) {
	t.Helper()
	now := time.Now()
	dir := ws.Path(workspace.CheckpointsDir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	tmp := filepath.Join(dir, ".writing")
	if err := os.WriteFile(tmp, []byte(now.Format("15:04:05")+" still at it\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(tmp, now, now); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, filepath.Join(dir, string(workspace.NewID(now))+".txt")); err != nil {
		t.Fatal(err)
	}
}
