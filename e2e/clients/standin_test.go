package clients

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// call is one tool call a scripted model makes.
type call struct {
	Tool string // an mcp-heart tool
	Args map[string]any
	// Builtin names a client's own tool instead (Bash, run_shell_command).
	Builtin string
}

// name is the call's tool name as the client knows it, given the prefix
// its MCP tools carry.
func (c call) name(mcpPrefix string) string {
	if c.Builtin != "" {
		return c.Builtin
	}
	return mcpPrefix + c.Tool
}

// script is what the stand-in model does in every run: the tool calls in
// order, then the final text. It records what came back from the tools.
type script struct {
	Calls []call
	Final string
	// PerTurn plays the calls again for each user message (an interactive
	// session keeps one conversation across heartbeats); otherwise they
	// count from the conversation's start (one run per conversation).
	PerTurn bool
	// SlowFirstTurn holds the first turn's first answer this long: an agent
	// busy past the next scheduled heartbeat.
	SlowFirstTurn time.Duration
	// SizedUsage reports each answer's usage from the request's size
	// (prompt tokens: its bytes / 4) and the answer's, as a real model's
	// would grow with the client's system prompt, tools and history;
	// otherwise every answer reports 10 prompt and 5 output tokens.
	SizedUsage bool
	// Fail answers the first requests of runs with these HTTP statuses
	// (the API's error body), one per request, before playing the script.
	Fail []int
	// Hold, when set, is called before the answer to each request of a
	// turn (step: the tool results so far), and may hold it: a model
	// thinking while something happens outside the client.
	Hold func(step int)

	mu      sync.Mutex
	failed  []time.Time // when each Fail answer went out
	results []string    // tool results the client sent back, as text
	runs    int         // requests that started a run (no tool result yet)
	prompts []string    // PerTurn: the user message of each turn
	bodies  []string    // the requests of the turns' steps, whole (the last 64)
}

// checkpointReplies counts the checkpoint replies the model saw.
func (s *script) checkpointReplies() int {
	n := 0
	for _, r := range s.seen() {
		if strings.Contains(r, "stats/checkpoints/") {
			n++
		}
	}
	return n
}

// keep notes a request of a turn's step.
func (s *script) keep(body []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.bodies = append(s.bodies, string(body))
	if len(s.bodies) > 64 {
		s.bodies = s.bodies[1:]
	}
}

// sent reports whether any request the model got holds text.
func (s *script) sent(text string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, b := range s.bodies {
		if strings.Contains(b, text) {
			return true
		}
	}
	return false
}

func (s *script) seen() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.results...)
}

// serve starts h on a free loopback port until the test ends.
func serve(t testing.TB, h http.Handler) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: h}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return "http://" + ln.Addr().String()
}

// geminiStandIn answers Gemini CLI's streamGenerateContent (the turn) and
// generateContent (its router), following s.
func geminiStandIn(t testing.TB, s *script) string {
	return serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if strings.Contains(r.URL.Path, ":streamGenerateContent") {
			s.keep(body)
		}
		if !strings.Contains(r.URL.Path, ":streamGenerateContent") {
			// The router (and anything else) gets a plain, valid answer.
			w.Header().Set("Content-Type", "application/json")
			usage := ""
			if s.SizedUsage {
				usage = fmt.Sprintf(`,"usageMetadata":{"promptTokenCount":%d,"candidatesTokenCount":15,"totalTokenCount":%d}`, len(body)/4, len(body)/4+15)
			}
			fmt.Fprint(w, `{"candidates":[{"content":{"role":"model","parts":[{"text":"{\"complexity_reasoning\":\"simple\",\"complexity_score\":1}"}]},"finishReason":"STOP"}]`+usage+`}`)
			return
		}
		var req struct {
			Contents []struct {
				Role  string `json:"role"`
				Parts []struct {
					Text             string `json:"text"`
					FunctionResponse *struct {
						Name     string          `json:"name"`
						Response json.RawMessage `json:"response"`
					} `json:"functionResponse"`
				} `json:"parts"`
			} `json:"contents"`
		}
		json.Unmarshal(body, &req)
		step := 0
		var last, prompt string
		for _, c := range req.Contents {
			for _, p := range c.Parts {
				if p.FunctionResponse != nil {
					step++
					last = string(p.FunctionResponse.Response)
				} else if s.PerTurn && c.Role == "user" && p.Text != "" {
					step, prompt = 0, p.Text // a new turn
				}
			}
		}
		s.heard(step, prompt, last)
		var part any = map[string]any{"text": s.Final}
		if step < len(s.Calls) {
			c := s.Calls[step]
			args := c.Args
			if args == nil {
				args = map[string]any{}
			}
			part = map[string]any{"functionCall": map[string]any{"name": c.name("mcp_mcp-heart_"), "args": args}}
		}
		in, out := 10, 5
		if s.SizedUsage {
			pb, _ := json.Marshal(part)
			in, out = len(body)/4, max(len(pb)/4, 1)
		}
		b, _ := json.Marshal(map[string]any{"candidates": []any{map[string]any{
			"content": map[string]any{"role": "model", "parts": []any{part}}, "finishReason": "STOP"}},
			"usageMetadata": map[string]any{"promptTokenCount": in, "candidatesTokenCount": out, "totalTokenCount": in + out}})
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprintf(w, "data: %s\n\n", b)
	}))
}

// toolUseID numbers the stand-ins' tool calls: Claude Code keys a
// conversation's calls by id, so one id twice would merge two turns.
var toolUseID atomic.Int64

// claudeStandIn answers Claude Code's streaming Messages API, following s.
func claudeStandIn(t testing.TB, s *script) string {
	return serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasPrefix(r.URL.Path, "/v1/messages") || strings.Contains(r.URL.Path, "count_tokens") {
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, `{"input_tokens":10}`)
			return
		}
		body, _ := io.ReadAll(r.Body)
		var req struct {
			Stream   bool `json:"stream"`
			Tools    []any
			Messages []struct {
				Role    string          `json:"role"`
				Content json.RawMessage `json:"content"`
			} `json:"messages"`
		}
		json.Unmarshal(body, &req)
		if len(req.Tools) > 0 {
			s.keep(body)
		}
		step, turns := 0, 0
		var last, prompt string
		for _, m := range req.Messages {
			var blocks []struct {
				Type    string          `json:"type"`
				Text    string          `json:"text"`
				Content json.RawMessage `json:"content"`
			}
			if json.Unmarshal(m.Content, &blocks) != nil {
				var text string
				if s.PerTurn && m.Role == "user" && json.Unmarshal(m.Content, &text) == nil && strings.HasPrefix(text, "Heartbeat: ") {
					turns++
					prompt = text
				}
				continue
			}
			for _, b := range blocks {
				switch {
				case b.Type == "tool_result":
					step++
					last = string(b.Content)
				case s.PerTurn && m.Role == "user" && b.Type == "text" && strings.HasPrefix(b.Text, "Heartbeat: "):
					turns++
					prompt = b.Text
				}
			}
		}
		// Claude Code merges a new turn's prompt (a heartbeat the watchdog
		// typed) into the user message holding the last turn's tool
		// results, and that turn's final text into the next assistant
		// message, so turns are counted, not found: each earlier turn made
		// every call of the script.
		if s.PerTurn && turns > 0 {
			step = max(0, step-(turns-1)*len(s.Calls))
		}
		// Side requests (titles, summaries) come without the MCP tools.
		main := strings.Contains(string(body), "mcp__mcp-heart__") || len(req.Tools) > 0
		if main && s.fail(w) {
			return
		}
		if main {
			s.heard(step, prompt, last)
		}
		w.Header().Set("Content-Type", "text/event-stream")
		ev := func(name string, v any) {
			b, _ := json.Marshal(v)
			fmt.Fprintf(w, "event: %s\ndata: %s\n\n", name, b)
		}
		ev("message_start", map[string]any{"type": "message_start", "message": map[string]any{"id": "msg_1", "type": "message", "role": "assistant",
			"model": "claude-standin", "content": []any{}, "stop_reason": nil, "usage": map[string]any{"input_tokens": 10, "output_tokens": 1}}})
		stop := "end_turn"
		if main && step < len(s.Calls) {
			c := s.Calls[step]
			args := c.Args
			if args == nil {
				args = map[string]any{}
			}
			in, _ := json.Marshal(args)
			ev("content_block_start", map[string]any{"type": "content_block_start", "index": 0,
				"content_block": map[string]any{"type": "tool_use", "id": fmt.Sprintf("toolu_%d", toolUseID.Add(1)), "name": c.name("mcp__mcp-heart__"), "input": map[string]any{}}})
			ev("content_block_delta", map[string]any{"type": "content_block_delta", "index": 0, "delta": map[string]any{"type": "input_json_delta", "partial_json": string(in)}})
			stop = "tool_use"
		} else {
			text := s.Final
			if !main {
				text = "ok"
			}
			ev("content_block_start", map[string]any{"type": "content_block_start", "index": 0, "content_block": map[string]any{"type": "text", "text": ""}})
			ev("content_block_delta", map[string]any{"type": "content_block_delta", "index": 0, "delta": map[string]any{"type": "text_delta", "text": text}})
		}
		ev("content_block_stop", map[string]any{"type": "content_block_stop", "index": 0})
		ev("message_delta", map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": stop}, "usage": map[string]any{"output_tokens": 5}})
		ev("message_stop", map[string]any{"type": "message_stop"})
	}))
}

// fail answers with the next of s.Fail, Anthropic's error shape, if any
// is left, and reports whether it did.
func (s *script) fail(w http.ResponseWriter) bool {
	s.mu.Lock()
	if len(s.Fail) == 0 {
		s.mu.Unlock()
		return false
	}
	code := s.Fail[0]
	s.Fail = s.Fail[1:]
	s.failed = append(s.failed, time.Now())
	s.mu.Unlock()
	typ := map[int]string{429: "rate_limit_error", 401: "authentication_error", 529: "overloaded_error"}[code]
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("retry-after", "30")
	w.WriteHeader(code)
	fmt.Fprintf(w, `{"type":"error","error":{"type":%q,"message":"the stand-in answers %d"}}`, typ, code)
	return true
}

// failures are the times of the Fail answers sent so far.
func (s *script) failures() []time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Time(nil), s.failed...)
}

// heard notes a request: step 0 starts a run (its prompt, for PerTurn),
// a later step brings the last tool's result. The first run's first answer
// waits SlowFirstTurn.
func (s *script) heard(step int, prompt, last string) {
	s.mu.Lock()
	slow := step == 0 && s.runs == 0 && s.SlowFirstTurn > 0
	if step == 0 {
		s.runs++
		s.prompts = append(s.prompts, prompt)
	} else {
		s.results = append(s.results, last)
	}
	hold := s.Hold
	s.mu.Unlock()
	if slow {
		time.Sleep(s.SlowFirstTurn)
	}
	if hold != nil {
		hold(step)
	}
}
