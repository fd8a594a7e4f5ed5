package transcript

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
	_ "time/tzdata"

	"github.com/ai-heart/ai-heart/internal/testutil"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

func TestIsGhost(t *testing.T) {
	tests := []struct {
		name  string
		reply string
		want  bool
	}{
		{"idle token", "[IDLE]", true},
		{"legacy token with spaces and newline", " HEARTBEAT_OK\n", true},
		{"idle token with CRLF and tabs", "\t[IDLE]\r\n", true},
		{"token then text", "[IDLE] but also text", false},
		{"text then token", "done.\n[IDLE]", false},
		{"empty", "", false},
		{"only white space", " \n\t", false},
		{"lower case", "[idle]", false},
		{"token without brackets", "IDLE", false},
		{"two tokens", "[IDLE] [IDLE]", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := IsGhost(tt.reply); got != tt.want {
				t.Errorf("IsGhost(%q) = %v, want %v", tt.reply, got, tt.want)
			}
		})
	}
}

func newWS(t *testing.T) *workspace.Workspace { return testutil.Workspace(t, time.UTC) }

func mustLoc(t *testing.T, name string) *time.Location { return testutil.Loc(t, name) }

func TestFile(t *testing.T) {
	tests := []struct {
		name, utc, loc, want string
	}{
		{"UTC", "2026-05-01T16:00:00Z", "UTC", "stats/wakeups/2026-05-01.jsonl"},
		{"Tokyo is already tomorrow", "2026-05-01T16:00:00Z", "Asia/Tokyo", "stats/wakeups/2026-05-02.jsonl"},
		{"New York is still yesterday", "2026-05-01T03:59:59Z", "America/New_York", "stats/wakeups/2026-04-30.jsonl"},
		{"New York midnight EDT", "2026-05-01T04:00:00Z", "America/New_York", "stats/wakeups/2026-05-01.jsonl"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			at, _ := time.Parse(time.RFC3339, tt.utc)
			if got := File(at, mustLoc(t, tt.loc)); got != tt.want {
				t.Errorf("File(%s, %s) = %s, want %s", tt.utc, tt.loc, got, tt.want)
			}
		})
	}
}

// lines returns the file's lines, failing unless each is one JSON object.
func lines(t *testing.T, ws *workspace.Workspace, rel string) []map[string]any {
	t.Helper()
	b, err := os.ReadFile(ws.Path(rel))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasSuffix(b, []byte("\n")) {
		t.Errorf("%s does not end with a newline", rel)
	}
	var out []map[string]any
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("%s line %d %q: %v", rel, len(out)+1, sc.Text(), err)
		}
		out = append(out, m)
	}
	return out
}

func TestAppendKeepsOldLines(t *testing.T) {
	ws := newWS(t)
	tokyo := mustLoc(t, "Asia/Tokyo")
	at := time.Date(2026, 5, 1, 23, 0, 0, 0, tokyo)
	rel := File(at, tokyo)
	// A line written earlier, without its final newline.
	if err := ws.WriteFile(rel, []byte(`{"time":"2026-05-01T08:00:00+09:00","agent":"old","source":"schedule"}`)); err != nil {
		t.Fatal(err)
	}
	entries := []Entry{
		{Time: at, Agent: "a", Source: "schedule", Prompt: "Heartbeat: 20260501230000", Reply: "wrote a log", DurationMS: 1200},
		{Time: at.Add(time.Minute), Agent: "a", Source: "extra", Prompt: "report <now> & then", Reply: "line 1\nline 2\n", DurationMS: 5, ExitCode: 2, Error: "exit status 2"},
		{Time: at.Add(2 * time.Minute).UTC(), Agent: "a", Source: "idle", Prompt: "p", Reply: "r"},
	}
	for _, e := range entries {
		if err := Append(ws, tokyo, e); err != nil {
			t.Fatalf("Append: %v", err)
		}
	}
	got := lines(t, ws, rel)
	if len(got) != 4 || got[0]["agent"] != "old" {
		t.Fatalf("%s has %d lines, first %v; want the old line then 3", rel, len(got), got[0])
	}
	if got[2]["reply"] != "line 1\nline 2\n" || got[2]["error"] != "exit status 2" || got[2]["exit_code"] != 2.0 {
		t.Errorf("second entry = %v", got[2])
	}
	if _, ok := got[1]["error"]; ok {
		t.Errorf("first entry = %v, want no error key on success", got[1])
	}
	if got[3]["time"] != "2026-05-01T23:02:00+09:00" {
		t.Errorf("time = %v, want it written in the transcript's location", got[3]["time"])
	}
	b, _ := os.ReadFile(ws.Path(rel))
	if !strings.Contains(string(b), "report <now> & then") {
		t.Errorf("prompt was HTML-escaped: %s", b)
	}

	read, err := Read(ws, rel)
	if err != nil || len(read) != 4 || !read[1].Time.Equal(entries[0].Time) || !reflect.DeepEqual(read[2], Entry{Time: read[2].Time, Agent: "a", Source: "extra", Prompt: entries[1].Prompt, Reply: entries[1].Reply, DurationMS: 5, ExitCode: 2, Error: "exit status 2"}) {
		t.Errorf("Read = %+v, %v", read, err)
	}
	dir, _ := os.ReadDir(ws.Path(workspace.WakeupsDir))
	if len(dir) != 1 {
		t.Errorf("%s holds %d files, want only %s (no stray temp files)", workspace.WakeupsDir, len(dir), rel)
	}
}

func TestAppendDayInLocation(t *testing.T) {
	ws := newWS(t)
	ny := mustLoc(t, "America/New_York")
	at := time.Date(2026, 11, 2, 4, 30, 0, 0, time.UTC) // 23:30 EST on 2026-11-01
	if err := Append(ws, ny, Entry{Time: at, Agent: "a"}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(ws.Path("stats/wakeups/2026-11-01.jsonl")); err != nil {
		t.Errorf("entry at %s (New York): %v", at, err)
	}
	if err := Append(ws, nil, Entry{Time: at, Agent: "a"}); err != nil { // the workspace's UTC
		t.Fatal(err)
	}
	if _, err := os.Stat(ws.Path("stats/wakeups/2026-11-02.jsonl")); err != nil {
		t.Errorf("entry at %s (workspace location UTC): %v", at, err)
	}
	if err := Append(ws, ny, Entry{Agent: "a"}); err == nil {
		t.Error("Append without a time = nil error, want ErrNoTime")
	}
}

func TestAppendConcurrent(t *testing.T) {
	ws := newWS(t)
	at := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	var wg sync.WaitGroup
	errs := make(chan error, 50)
	for i := range 50 {
		wg.Go(func() {
			errs <- Append(ws, time.UTC, Entry{Time: at, Agent: fmt.Sprint(i), Reply: strings.Repeat("x", i*100)})
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if fi, err := os.Stat(ws.Path(File(at, time.UTC))); err != nil || fi.Mode().Perm()&0o007 != 0 {
		t.Errorf("transcript mode = %v (%v), want nothing for other users: it holds prompts and replies", fi.Mode(), err)
	}
	got := lines(t, ws, File(at, time.UTC))
	seen := map[any]bool{}
	for _, m := range got {
		seen[m["agent"]] = true
	}
	if len(got) != 50 || len(seen) != 50 {
		t.Errorf("50 concurrent Appends left %d lines from %d agents, want 50 and 50", len(got), len(seen))
	}
}

func TestReadSkipsBadLines(t *testing.T) {
	ws := newWS(t)
	rel := "stats/wakeups/2026-05-01.jsonl"
	if err := ws.WriteFile(rel, []byte("{\"agent\":\"a\"}\nnot json\n\n{\"agent\":\"b\"}\n")); err != nil {
		t.Fatal(err)
	}
	got, err := Read(ws, rel)
	if len(got) != 2 || got[1].Agent != "b" || err == nil || !strings.Contains(err.Error(), ":2:") {
		t.Errorf("Read = %+v, %v; want 2 entries and an error naming line 2", got, err)
	}
	if got, err := Read(ws, "stats/wakeups/2000-01-01.jsonl"); got != nil || err != nil {
		t.Errorf("Read(missing) = %v, %v; want nothing", got, err)
	}
}

// TestAppendInPlace pins the append-only log: the file is appended to, not
// replaced, and a torn last line is kept as is, ended, and skipped by Read.
func TestAppendInPlace(t *testing.T) {
	ws := newWS(t)
	at := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	rel := File(at, time.UTC)
	torn := `{"time":"2026-05-01T11:00:00Z","agent":"a","rep`
	if err := ws.WriteFile(rel, []byte(torn)); err != nil {
		t.Fatal(err)
	}
	before, err := os.Stat(ws.Path(rel))
	if err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		if err := Append(ws, time.UTC, Entry{Time: at, Agent: fmt.Sprint(i)}); err != nil {
			t.Fatalf("Append: %v", err)
		}
	}
	after, err := os.Stat(ws.Path(rel))
	if err != nil {
		t.Fatal(err)
	}
	if !os.SameFile(before, after) {
		t.Errorf("Append replaced %s, want it appended to in place", rel)
	}
	b, _ := os.ReadFile(ws.Path(rel))
	if !strings.HasPrefix(string(b), torn+"\n{") || strings.Count(string(b), "\n") != 3 {
		t.Errorf("%s = %q, want the torn line, a newline, then 2 lines", rel, b)
	}
	got, err := Read(ws, rel)
	if len(got) != 2 || got[0].Agent != "0" || got[1].Agent != "1" || err == nil {
		t.Errorf("Read = %+v, %v; want the 2 appended entries and an error for the torn line", got, err)
	}
}

// TestAppendTruncated: a reply cut at the delivery's limit is marked, and an
// uncut one carries no truncated key.
func TestAppendTruncated(t *testing.T) {
	ws := newWS(t)
	at := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	for _, e := range []Entry{{Time: at, Agent: "cut", Reply: "xxx", Truncated: true}, {Time: at, Agent: "whole", Reply: "x"}} {
		if err := Append(ws, time.UTC, e); err != nil {
			t.Fatal(err)
		}
	}
	got := lines(t, ws, File(at, time.UTC))
	if len(got) != 2 || got[0]["truncated"] != true {
		t.Fatalf("lines = %v, want the first with truncated: true", got)
	}
	if _, ok := got[1]["truncated"]; ok {
		t.Errorf("uncut reply's line = %v, want no truncated key", got[1])
	}
	if read, err := Read(ws, File(at, time.UTC)); err != nil || len(read) != 2 || !read[0].Truncated || read[1].Truncated {
		t.Errorf("Read = %+v, %v; want Truncated read back", read, err)
	}
}
