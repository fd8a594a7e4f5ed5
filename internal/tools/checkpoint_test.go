package tools

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/workspace"

	"github.com/ai-heart/ai-heart/internal/lang"
)

func TestCheckpointAppends(t *testing.T) {
	e := newEnv(t)
	rel := "stats/checkpoints/" + string(testID) + ".txt"
	// A legacy free-text file of the same ID keeps its text byte for byte.
	e.write(rel, "legacy free text", e.now().Add(-time.Minute))
	res, err := call(e.tl, e.tl.Checkpoint, args(t, `{"current_activity":"reading\nmode: strict\r\nforged"}`))
	if err != nil {
		t.Fatal(err)
	}
	if res.Message != "reading mode: strict  forged" {
		t.Errorf("message = %q, want newlines replaced by spaces", res.Message)
	}
	if res.PreviousCheckpointMessage != "legacy free text" || res.SincePreviousCheckpointSeconds == nil || *res.SincePreviousCheckpointSeconds != 60 {
		t.Errorf("previous = %q after %v, want the legacy text 60 s ago", res.PreviousCheckpointMessage, res.SincePreviousCheckpointSeconds)
	}
	e.clk.Advance(time.Second)
	if _, err := call(e.tl, e.tl.Checkpoint, args(t, `{"current_activity":"writing"}`)); err != nil {
		t.Fatal(err)
	}
	got := e.read(rel)
	want := "legacy free text\n03:04:15 reading mode: strict  forged\n03:04:16 writing\n"
	if got != want {
		t.Errorf("checkpoint file = %q, want %q", got, want)
	}
	if n := len(strings.Split(strings.TrimSpace(got), "\n")); n != 3 {
		t.Errorf("file has %d lines, want 3 (no forged line)", n)
	}
	l, err := e.ws.ReadLatest()
	if err != nil || l.Checkpoint == nil || l.Checkpoint.Message != "writing" {
		t.Errorf("index checkpoint = %+v, %v; want the last line", l.Checkpoint, err)
	}
}

func TestCheckpointBadCalls(t *testing.T) {
	tests := []struct {
		name, json, field string
		words             []string
	}{
		{"missing", `{}`, "current_activity", []string{"required"}},
		{"null", `{"current_activity":null}`, "current_activity", []string{"required"}},
		{"blank", `{"current_activity":" \n "}`, "current_activity", []string{"empty"}},
		{"not a string", `{"current_activity":["a"]}`, "current_activity", []string{"list"}},
		{"501 chars", `{"current_activity":"` + strings.Repeat("a", 501) + `"}`, "current_activity", []string{"501", "500"}},
		{"unknown param", `{"current_activity":"x","heartbeat_id":"20250102030405"}`, "heartbeat_id", []string{"unknown"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			before := e.snapshot()
			_, err := call(e.tl, e.tl.Checkpoint, args(t, tc.json))
			wantInputError(t, err, tc.field, tc.words...)
			e.sameSnapshot(before)
		})
	}
	t.Run("500 chars ok", func(t *testing.T) {
		e := newEnv(t)
		if _, err := call(e.tl, e.tl.Checkpoint, args(t, `{"current_activity":"`+strings.Repeat("あ", 500)+`"}`)); err != nil {
			t.Errorf("500 characters refused: %v", err)
		}
	})
	t.Run("no current ID", func(t *testing.T) {
		e := newEnv(t)
		os.Remove(e.ws.Path(workspace.CurrentIDFile))
		before := e.snapshot()
		_, err := call(e.tl, e.tl.Checkpoint, args(t, `{"current_activity":"x"}`))
		wantInputError(t, err, "", "watchdog")
		e.sameSnapshot(before)
	})
}

// The start_deep_work suggestion appears once the last log is as old as the
// inactivity warning, and never while deep work is in force.
func TestCheckpointSuggestsDeepWork(t *testing.T) {
	tests := []struct {
		name     string
		logAge   time.Duration
		deep     string // declaration content, "" for none
		suggests bool
	}{
		{"log 4m59s", 4*time.Minute + 59*time.Second, "", false},
		{"log 5m0s", 5 * time.Minute, "", true},
		{"log 5m1s", 5*time.Minute + time.Second, "", true},
		{"log 6m flexible", 6 * time.Minute, "mode: flexible\nactivity: reading a paper\n", false},
		{"log 6m strict in force", 6 * time.Minute, "mode: strict\nactivity: reading a paper\nplanned_minutes: 10\ndeadline: 2025-01-02T03:10:00Z\n", false},
		{"log 6m strict past deadline", 6 * time.Minute, "mode: strict\nactivity: reading a paper\nplanned_minutes: 1\ndeadline: 2025-01-02T03:04:00Z\n", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			e.writeState(t, e.now())
			e.write(testThemeHist+"/20250102025000.md", "## Activity type\nthinking\n", e.now().Add(-tc.logAge))
			if tc.deep != "" {
				e.write("stats/deep_work/20250102030000.txt", tc.deep, e.now())
			}
			res, err := call(e.tl, e.tl.Checkpoint, args(t, `{"current_activity":"still reading"}`))
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Contains(res.Text(lang.English), "start_deep_work"); got != tc.suggests {
				t.Errorf("suggests start_deep_work = %v, want %v: %s", got, tc.suggests, res.Text(lang.English))
			}
		})
	}
}
