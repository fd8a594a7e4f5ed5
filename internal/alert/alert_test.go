package alert

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/ai-heart/ai-heart/internal/checks"
)

func TestEmitWritesSpecFields(t *testing.T) {
	var stderr bytes.Buffer
	path := filepath.Join(t.TempDir(), "alerts.jsonl")
	s, err := NewSink(zerolog.New(&stderr), path)
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	s.Emit(Alert{Time: at, Level: checks.Warning, Agent: "alice", Check: "inactivity", Message: "no proof for 6m", HeartbeatID: "20261122100000", Elapsed: 6*time.Minute + 500*time.Millisecond})
	s.Emit(Alert{Time: at.Add(time.Minute), Level: checks.OK, Agent: "alice", Check: "inactivity", Message: "back to normal"})
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	file, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm()&0o007 != 0 {
		t.Errorf("alerts file mode = %v (%v), want nothing for other users", fi.Mode(), err)
	}
	for name, out := range map[string][]byte{"stderr": stderr.Bytes(), "file": file} {
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		if len(lines) != 2 {
			t.Fatalf("%s: %d lines, want 2: %q", name, len(lines), out)
		}
		var got map[string]any
		if err := json.Unmarshal([]byte(lines[0]), &got); err != nil {
			t.Fatalf("%s: line is not JSON: %v", name, err)
		}
		want := map[string]any{"time": "2026-11-22T10:00:00Z", "level": "warning", "agent": "alice", "check": "inactivity", "message": "no proof for 6m", "heartbeat_id": "20261122100000", "elapsed_s": float64(360)}
		for k, v := range want {
			if got[k] != v {
				t.Errorf("%s: %s = %v, want %v", name, k, got[k], v)
			}
		}
		if len(got) != len(want) {
			t.Errorf("%s: fields %v, want exactly %v", name, got, want)
		}
	}
}
