package migrate

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/workspace"
)

// TestStateFilesMoveToTheStateFolder: the cap, the breaker, the ledger and
// the day strip an older watchdog kept in stats/ are copied to the state
// folder (0600), the old ones renamed, never deleted; a second run changes
// nothing, and a state folder that has its own file is never overwritten.
func TestStateFilesMoveToTheStateFolder(t *testing.T) {
	ws, err := workspace.New(t.TempDir(), time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	old := map[string]string{
		"stats/daily_cap.json":           `{"day":"2026-11-27","used":7,"limit":9}`,
		"stats/circuit_breaker.json":     `{"state":"closed","failures":1}`,
		"stats/cost.json":                `{"days":{},"totals":{}}`,
		"stats/day/2026-11-27.jsonl":     `{"t":"2026-11-27T10:00:00Z","kind":"mode","mode":"working"}` + "\n",
		"stats/day/2026-11-26.jsonl":     `{"t":"2026-11-26T10:00:00Z","kind":"mode","mode":"waiting"}` + "\n",
		"stats/watchdog_state.json":      `{"agent":"published copy: stays"}`,
		"stats/current_heartbeat_id.txt": "20261127100000\n",
	}
	for rel, body := range old {
		if err := os.MkdirAll(filepath.Dir(ws.Path(rel)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(ws.Path(rel), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	dir := filepath.Join(t.TempDir(), "state", "alice-0000")
	steps, err := StateFiles(ws, dir)
	if err != nil {
		t.Fatal(err)
	}
	moved := map[string]string{
		"stats/daily_cap.json":       "daily_cap.json",
		"stats/circuit_breaker.json": "circuit_breaker.json",
		"stats/cost.json":            "cost.json",
		"stats/day/2026-11-27.jsonl": "day/2026-11-27.jsonl",
		"stats/day/2026-11-26.jsonl": "day/2026-11-26.jsonl",
	}
	for from, to := range moved {
		b, err := os.ReadFile(filepath.Join(dir, to))
		if err != nil || string(b) != old[from] {
			t.Errorf("%s in the state folder = %q, %v; want %s's content", to, b, err, from)
		}
		if fi, err := os.Stat(filepath.Join(dir, to)); err != nil || fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: %v, %v; want mode 0600", to, fi, err)
		}
		if _, err := os.Stat(ws.Path(from)); !os.IsNotExist(err) {
			t.Errorf("%s still in the workspace under its name: %v", from, err)
		}
	}
	for _, kept := range []string{"stats/daily_cap.json.migrated", "stats/circuit_breaker.json.migrated", "stats/cost.json.migrated", "stats/day.migrated/2026-11-27.jsonl", "stats/watchdog_state.json", "stats/current_heartbeat_id.txt"} {
		if _, err := os.Stat(ws.Path(kept)); err != nil {
			t.Errorf("%s: %v; nothing is deleted", kept, err)
		}
	}
	if fi, err := os.Stat(dir); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("state folder: %v, %v; want mode 0700", fi, err)
	}
	if len(steps) != 9 { // 5 copies, 4 renames
		t.Errorf("steps = %v", steps)
	}
	again, err := StateFiles(ws, dir)
	if err != nil || len(again) != 0 {
		t.Errorf("a second run = %v, %v; want nothing to do", again, err)
	}

	// A workspace copy that differs from the state folder's own stays put.
	if err := os.WriteFile(ws.Path("stats/cost.json"), []byte(`{"days":{},"totals":{"schedule":{"runs":1}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	steps, err = StateFiles(ws, dir)
	if err != nil || len(steps) != 1 || steps[0].Kind != Conflict {
		t.Fatalf("steps = %v, %v; want one conflict", steps, err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "cost.json")); string(b) != old["stats/cost.json"] {
		t.Errorf("the state folder's ledger was overwritten: %s", b)
	}
	if _, err := os.Stat(ws.Path("stats/cost.json")); err != nil {
		t.Errorf("the conflicting old file was moved: %v", err)
	}
}
