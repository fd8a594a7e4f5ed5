package delivery

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestExecStreamJSON: the reply is the final text of the client's stream,
// tool calls are counted, and the run is ended at call max+1.
func TestExecStreamJSON(t *testing.T) {
	agent := buildHelper(t, "fakeagent")
	for _, tc := range []struct {
		name      string
		format    string
		calls     string
		max       int
		wantErr   error
		wantReply string
		wantCalls int
	}{
		{"gemini, under the cap", "gemini", "3", 5, nil, "done: checkpoint written", 3},
		{"claude, under the cap", "claude", "3", 5, nil, "done: checkpoint written", 3},
		{"gemini, at the cap", "gemini", "5", 5, nil, "done: checkpoint written", 5},
		{"claude, ghost reply", "claude", "0", 5, nil, "[IDLE]", 0},
		{"gemini, no cap", "gemini", "12", 0, nil, "done: checkpoint written", 12},
		{"gemini, calls forever", "gemini", "-1", 5, ErrToolCap, "", 6},
		{"claude, calls forever", "claude", "-1", 5, ErrToolCap, "", 6},
	} {
		t.Run(tc.name, func(t *testing.T) {
			reply := tc.wantReply
			if reply == "" {
				reply = "never reached"
			}
			e := NewExec([]string{agent, "stream", tc.format, tc.calls, reply}, 30*time.Second)
			e.StreamJSON, e.MaxToolCalls = true, tc.max
			res, err := e.Deliver(context.Background(), "x")
			if !errors.Is(err, tc.wantErr) {
				t.Fatalf("Deliver = %v, want %v", err, tc.wantErr)
			}
			if tc.wantErr != nil {
				// Ended at call max+1: the count may not see later events.
				if res.ToolCalls < tc.wantCalls || res.Duration > 20*time.Second {
					t.Fatalf("ended run: %d calls in %s, want it ended at call %d", res.ToolCalls, res.Duration, tc.wantCalls)
				}
				return
			}
			if res.Reply != tc.wantReply || res.ToolCalls != tc.wantCalls {
				t.Fatalf("reply %q calls %d, want %q and %d", res.Reply, res.ToolCalls, tc.wantReply, tc.wantCalls)
			}
		})
	}
}

// TestStreamReaderSplitLines: events split across writes, non-JSON lines
// and a last line without a newline are all read right.
func TestStreamReaderSplitLines(t *testing.T) {
	var over int
	s := &streamReader{max: 1, onOver: func() { over++ }}
	for _, chunk := range []string{`{"type":"tool_u`, "se\"}\nnot json\n", `{"type":"tool_use"}` + "\n", `{"type":"result","result":"fin"}`} {
		s.Write([]byte(chunk))
	}
	s.finish()
	if n, o := s.toolCalls(); n != 2 || !o || s.reply() != "fin" || s.events != 3 {
		t.Fatalf("calls %d over %v reply %q events %d", n, o, s.reply(), s.events)
	}
}

// Claude Code's stream-json of a run the model's API refused (a stand-in
// answering 429, then 401, recorded with CLAUDE_CODE_MAX_RETRIES=0) names
// the cause; a healthy run names none.
func TestStreamServiceFailure(t *testing.T) {
	for file, want := range map[string]string{
		"claude-2.1.197-429.jsonl": "rate_limit",
		"claude-2.1.197-401.jsonl": "authentication_failed",
		"claude-2.1.197.jsonl":     "",
		"gemini-0.61.0.jsonl":      "",
	} {
		b, err := os.ReadFile(filepath.Join("testdata", "stream", file))
		if err != nil {
			t.Fatal(err)
		}
		s := &streamReader{}
		s.Write(b)
		s.finish()
		if got := s.serviceFailure(); got != want {
			t.Errorf("%s: service failure %q, want %q", file, got, want)
		}
	}
	// Without the assistant's word, the result's HTTP status says it.
	s := &streamReader{}
	s.Write([]byte(`{"type":"result","is_error":true,"api_error_status":529,"result":"API Error"}` + "\n"))
	if got := s.serviceFailure(); got != "overloaded" {
		t.Errorf("status 529: %q, want overloaded", got)
	}
}

// A turn's usage from Claude Code's session transcript (recorded from the
// real 2.1.197 against the stand-in, one Bash call then the answer; the
// stand-in's message ids made unique as the real API's are): two messages
// of 10 input and 5 output tokens, counted once each, and only those
// inside the turn.
func TestTurnUsage(t *testing.T) {
	path := filepath.Join("testdata", "stream", "claude-2.1.197-session.jsonl")
	from := time.Date(2026, 11, 25, 13, 41, 32, 500e6, time.UTC)
	to := time.Date(2026, 11, 25, 13, 41, 33, 0, time.UTC)
	u, err := TurnUsage("claude-code", path, from, to)
	if err != nil || u == nil || u.Tokens.Input != 20 || u.Tokens.Output != 10 || u.Models["claude-standin"].Total() != 30 {
		t.Fatalf("TurnUsage = %+v, %v; want 20 in, 10 out, all claude-standin", u, err)
	}
	if u, err := TurnUsage("claude-code", path, to, to.Add(time.Minute)); u != nil || err != nil {
		t.Errorf("a turn with no message = %+v, %v; want unknown", u, err)
	}
	if u, err := TurnUsage("gemini", path, from, to); u != nil || err != nil {
		t.Errorf("another client = %+v, %v; want unknown", u, err)
	}
	if _, err := TurnUsage("claude-code", filepath.Join(t.TempDir(), "gone.jsonl"), from, to); err == nil {
		t.Error("a missing transcript is no error")
	}
}
