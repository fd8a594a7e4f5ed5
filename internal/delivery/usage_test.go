package delivery

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/cost"
)

// TestStreamUsageRecorded reads the usage of stream-json recorded from the
// installed clients (Claude Code 2.1.197 with one Read call, Gemini CLI
// 0.61.0) run against a model stand-in that reported known usage per turn.
func TestStreamUsageRecorded(t *testing.T) {
	for _, tc := range []struct {
		file   string
		reply  string
		tokens cost.Tokens
		models map[string]cost.Tokens
		usd    *float64
	}{
		{
			// Two turns of 1000 input, 300 cache read, 200 cache write and
			// 70 then 50 output tokens: Claude Code sums them.
			file: "claude-2.1.197.jsonl", reply: "[IDLE]",
			tokens: cost.Tokens{Input: 2000, Output: 120, CacheRead: 600, CacheWrite: 400},
			models: map[string]cost.Tokens{"claude-opus-4-8[1m]": {Input: 2000, Output: 120, CacheRead: 600, CacheWrite: 400}},
			usd:    ptr(0.0158),
		},
		{
			// The router: a prompt of 100, 7 out. The turn: a prompt of
			// 1000 with 400 cached, 50 out and 20 thinking.
			file: "gemini-0.61.0.jsonl", reply: "[IDLE]",
			tokens: cost.Tokens{Input: 700, Output: 77, CacheRead: 400},
			models: map[string]cost.Tokens{
				"gemini-3.5-flash-lite": {Input: 100, Output: 7},
				"gemini-standin":        {Input: 600, Output: 70, CacheRead: 400},
			},
		},
		{
			// Codex 0.169's exec --json against its stand-in (two MCP
			// calls and a shell command, then [IDLE]): the turn's usage,
			// input_tokens counting the 8 cached ones.
			file: "codex-0.169.0.jsonl", reply: "[IDLE]",
			tokens: cost.Tokens{Input: 32, Output: 20, CacheRead: 8},
		},
	} {
		t.Run(tc.file, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join("testdata", "stream", tc.file))
			if err != nil {
				t.Fatal(err)
			}
			s := &streamReader{}
			s.Write(b)
			s.finish()
			if n, _ := s.toolCalls(); tc.file == "codex-0.169.0.jsonl" && n != 3 {
				t.Errorf("tool calls = %d, want Codex's 3", n)
			}
			if got := s.reply(); got != tc.reply {
				t.Errorf("reply = %q, want %q", got, tc.reply)
			}
			u := s.usage()
			if u == nil {
				t.Fatal("usage = nil, want the result's")
			}
			if u.Tokens != tc.tokens || u.Partial {
				t.Errorf("tokens = %+v (partial %v), want %+v", u.Tokens, u.Partial, tc.tokens)
			}
			if len(u.Models) != len(tc.models) {
				t.Errorf("models = %+v, want %+v", u.Models, tc.models)
			}
			for m, want := range tc.models {
				if u.Models[m] != want {
					t.Errorf("model %s = %+v, want %+v", m, u.Models[m], want)
				}
			}
			switch {
			case tc.usd == nil && u.ReportedUSD != nil:
				t.Errorf("reported cost = %v, want none", *u.ReportedUSD)
			case tc.usd != nil && (u.ReportedUSD == nil || *u.ReportedUSD != *tc.usd):
				t.Errorf("reported cost = %v, want %v", u.ReportedUSD, *tc.usd)
			}
		})
	}
}

// TestStreamUsageUnknown: a stream without usage is unknown (nil), never 0.
func TestStreamUsageUnknown(t *testing.T) {
	s := &streamReader{}
	s.Write([]byte(`{"type":"message","role":"assistant","content":"hi"}` + "\n" + `{"type":"result","status":"success"}` + "\n"))
	if u := s.usage(); u != nil {
		t.Fatalf("usage = %+v, want nil (unknown)", u)
	}
}

// TestExecUsage: the fake agent's known usage per turn comes out summed,
// for both formats; a run that reports none has nil usage.
func TestExecUsage(t *testing.T) {
	agent := buildHelper(t, "fakeagent")
	for _, tc := range []struct {
		name string
		argv []string
		want *cost.Usage
	}{
		{"claude, 3 calls, cost reported", []string{"stream", "claude", "3", "done", "model=m1", "cost=0.0125"},
			&cost.Usage{Tokens: cost.Tokens{Input: 400, CacheRead: 200, Output: 50}, ReportedUSD: ptr(0.0125)}},
		{"gemini, 2 calls", []string{"stream", "gemini", "2", "done", "model=g1"},
			&cost.Usage{Tokens: cost.Tokens{Input: 300, CacheRead: 150, Output: 40}}},
		{"claude, no usage", []string{"stream", "claude", "1", "done", "nousage"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := NewExec(append([]string{agent}, tc.argv...), 30*time.Second)
			e.StreamJSON = true
			res, err := e.Deliver(context.Background(), "x")
			if err != nil {
				t.Fatal(err)
			}
			if res.Reply != "done" {
				t.Errorf("reply = %q", res.Reply)
			}
			if tc.want == nil {
				if res.Usage != nil {
					t.Fatalf("usage = %+v, want nil", res.Usage)
				}
				return
			}
			if res.Usage == nil || res.Usage.Tokens != tc.want.Tokens || res.Usage.Tokens.Total() != tc.want.Tokens.Total() {
				t.Fatalf("usage = %+v, want tokens %+v", res.Usage, tc.want.Tokens)
			}
			if (tc.want.ReportedUSD == nil) != (res.Usage.ReportedUSD == nil) || (tc.want.ReportedUSD != nil && *res.Usage.ReportedUSD != *tc.want.ReportedUSD) {
				t.Fatalf("reported cost = %v, want %v", res.Usage.ReportedUSD, tc.want.ReportedUSD)
			}
		})
	}
}

// TestExecTokenCap: budget.per_wakeup_tokens ends a Claude Code run whose
// running usage (the assistant messages' usage) passes it, and the usage
// seen so far comes back, marked partial.
func TestExecTokenCap(t *testing.T) {
	agent := buildHelper(t, "fakeagent")
	e := NewExec([]string{agent, "stream", "claude", "-1", "never"}, 30*time.Second)
	e.StreamJSON, e.MaxTokens = true, 1000 // 160 a call: ended at the 7th (1120)
	res, err := e.Deliver(context.Background(), "x")
	if !errors.Is(err, ErrTokenCap) {
		t.Fatalf("Deliver = %v, want ErrTokenCap", err)
	}
	if res.Usage == nil || !res.Usage.Partial || res.Usage.Tokens.Total() <= 1000 {
		t.Fatalf("usage = %+v, want a partial usage past 1000 tokens", res.Usage)
	}
	if got := res.Usage.Models["fake-model"]; got != res.Usage.Tokens {
		t.Fatalf("by model = %+v, want all under fake-model", res.Usage.Models)
	}
}

func ptr(f float64) *float64 { return &f }
