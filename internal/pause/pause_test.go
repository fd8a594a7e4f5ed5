package pause

import (
	"os"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/workspace"
)

func TestSetReadClear(t *testing.T) {
	ws, err := workspace.New(t.TempDir(), time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	if p, err := Read(ws); p != nil || err != nil {
		t.Fatalf("no file: %v %v", p, err)
	}
	if err := Set(ws, Pause{Since: now, Until: now.Add(-time.Minute)}); err == nil {
		t.Fatal("pause ending in the past accepted")
	}
	if err := Set(ws, Pause{Since: now, Until: now.Add(2 * time.Hour), Reason: "maintenance"}); err != nil {
		t.Fatal(err)
	}
	p, err := Read(ws)
	if err != nil || p.Reason != "maintenance" || !p.Active(now.Add(time.Hour)) || p.Active(now.Add(2*time.Hour)) {
		t.Fatalf("read back %+v %v", p, err)
	}
	if err := Clear(ws); err != nil {
		t.Fatal(err)
	}
	if err := Clear(ws); err != nil {
		t.Fatalf("second clear: %v", err)
	}
	if p, _ := Read(ws); p.Active(now) {
		t.Fatal("still paused after clear")
	}
	// A damaged file stays paused.
	if err := os.WriteFile(ws.Path(File), []byte("{nope"), 0o644); err != nil {
		t.Fatal(err)
	}
	if p, _ := Read(ws); !p.Active(now) {
		t.Fatal("damaged pause file read as not paused")
	}
}
