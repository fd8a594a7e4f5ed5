package delivery

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/ai-heart/ai-heart/internal/cost"
)

// ErrToolCap reports that a run went past agent.max_tool_calls and was
// ended: its result is discarded like a ghost's, and the breaker counts it.
var ErrToolCap = errors.New("per-wakeup tool-call cap reached")

// ErrRefused reports a run whose every tool call the client refused (not
// allowed by its permission settings): it did nothing, so it is no answer.
var ErrRefused = errors.New("the client refused every tool call")

// ErrTokenCap reports that a run's usage went past budget.per_wakeup_tokens
// and it was ended: discarded like a tool-capped run, and counted as capped.
var ErrTokenCap = errors.New("per-wakeup token cap reached")

// streamReader reads a client's --output-format stream-json (one JSON event
// per line, Gemini CLI and Claude Code alike): it counts the tool calls as
// they happen and keeps the final text. Lines that are not JSON are passed
// over; a partial last line is read when the stream ends.
type streamReader struct {
	max    int    // tool calls allowed (0 = no cap)
	onOver func() // called once, at call max+1
	// maxTokens ends the run once its running usage passes it (0 = no cap);
	// onTokens is called once when it does.
	maxTokens int64
	onTokens  func()

	mu     sync.Mutex
	line   []byte
	calls  int
	over   bool
	result string          // the result event's text
	said   strings.Builder // assistant text, when no result event says it
	events int

	model        string                // Claude Code's init event's model
	running      map[string]runningMsg // Claude Code: usage per assistant message id
	final        *cost.Usage           // the result event's usage
	tokenOver    bool
	serviceError string // why the model's service failed the run ("" if it did not)
	refusals     refusals
}

// runningMsg is one assistant message's usage as last seen.
type runningMsg struct {
	model  string
	tokens cost.Tokens
}

// event is the part of a stream-json line the reader needs. Gemini CLI
// writes {"type":"tool_use",...}, {"type":"message","role":"assistant",
// "content":"..."} and {"type":"result",...}; Claude Code writes
// {"type":"assistant","message":{"content":[{"type":"tool_use"},...]}} and
// {"type":"result","result":"..."}.
type event struct {
	Type     string          `json:"type"`
	Role     string          `json:"role"`
	Content  json.RawMessage `json:"content"`
	Result   json.RawMessage `json:"result"`
	Response string          `json:"response"`
	Subtype  string          `json:"subtype"`
	Model    string          `json:"model"` // Claude Code's system init: the session's model
	Message  *struct {
		ID      string `json:"id"`
		Model   string `json:"model"`
		Content []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
		Usage *claudeUsage `json:"usage"`
	} `json:"message"`
	// Claude Code's result: usage, total_cost_usd, modelUsage.
	Usage        *claudeUsage                `json:"usage"`
	TotalCostUSD *float64                    `json:"total_cost_usd"`
	ModelUsage   map[string]claudeModelUsage `json:"modelUsage"`
	// Gemini CLI's result: stats.
	Stats *geminiStats `json:"stats"`
	// Claude Code names a failed request's cause on the assistant event
	// ("error":"rate_limit") and its HTTP status on the result; Gemini
	// CLI's tool_result carries an object ({"type":"policy_violation"}).
	Error          json.RawMessage `json:"error"`
	IsError        bool            `json:"is_error"`
	APIErrorStatus int             `json:"api_error_status"`
	// Codex's `exec --json`: items (tool calls, the agent's message) and
	// the turn's end with its usage.
	Item *struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"item"`
	// Claude Code's result lists the calls it refused; Gemini CLI's
	// tool_use names a call and its tool_result says how it went.
	PermissionDenials []struct {
		ToolName string `json:"tool_name"`
	} `json:"permission_denials"`
	ToolName string `json:"tool_name"`
	ToolID   string `json:"tool_id"`
	Status   string `json:"status"`
}

func (s *streamReader) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.line = append(s.line, p...)
	for {
		i := bytes.IndexByte(s.line, '\n')
		if i < 0 {
			break
		}
		s.take(s.line[:i])
		s.line = s.line[i+1:]
	}
	if len(s.line) > MaxReply { // a runaway line: drop it, keep counting
		s.line = s.line[:0]
	}
	return len(p), nil
}

// finish reads a last line without its newline.
func (s *streamReader) finish() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(bytes.TrimSpace(s.line)) > 0 {
		s.take(s.line)
	}
	s.line = nil
}

func (s *streamReader) take(l []byte) {
	var ev event
	if json.Unmarshal(bytes.TrimSpace(l), &ev) != nil {
		return
	}
	s.events++
	switch ev.Type {
	case "system":
		if ev.Subtype == "init" {
			s.model = ev.Model
		}
	case "tool_use":
		s.call()
		s.refusals.begin(ev.ToolID, ev.ToolName)
	case "tool_result":
		s.refusals.result(ev.ToolID, ev.Status, ev.Error)
	case "assistant":
		var why string
		if json.Unmarshal(ev.Error, &why) == nil && why != "" {
			s.serviceError = why
		}
		if ev.Message != nil && ev.Message.Usage != nil {
			s.runningUsage(ev.Message.ID, ev.Message.Model, ev.Message.Usage.tokens())
		}
		if ev.Message != nil {
			for _, c := range ev.Message.Content {
				switch c.Type {
				case "tool_use":
					s.call()
				case "text":
					s.said.WriteString(c.Text)
				}
			}
		}
	case "message":
		var text string
		if ev.Role == "assistant" && json.Unmarshal(ev.Content, &text) == nil {
			s.said.WriteString(text)
		}
	case "item.started": // Codex: a tool call begins
		if ev.Item != nil && (ev.Item.Type == "command_execution" || ev.Item.Type == "mcp_tool_call" || ev.Item.Type == "web_search" || ev.Item.Type == "file_change") {
			s.call()
		}
	case "item.completed": // Codex: the agent's message is the reply
		if ev.Item != nil && ev.Item.Type == "agent_message" {
			s.result = ev.Item.Text
		}
	case "turn.completed": // Codex: the turn's usage, every step summed
		if ev.Usage != nil {
			u := &cost.Usage{Tokens: ev.Usage.codexTokens()}
			if s.model != "" {
				u.Models = map[string]cost.Tokens{s.model: u.Tokens}
			}
			s.final = u
			s.checkTokens(u.Tokens.Total())
		}
	case "result":
		if ev.IsError && s.serviceError == "" {
			s.serviceError = statusError(ev.APIErrorStatus)
		}
		for _, d := range ev.PermissionDenials {
			s.refusals.refuse(d.ToolName)
		}
		var text string
		if json.Unmarshal(ev.Result, &text) == nil && text != "" {
			s.result = text
		} else if ev.Response != "" {
			s.result = ev.Response
		}
		if u := resultUsage(ev); u != nil {
			if u.Models == nil && s.model != "" {
				u.Models = map[string]cost.Tokens{s.model: u.Tokens}
			}
			s.final = u
			s.checkTokens(u.Tokens.Total())
		}
	}
}

// runningUsage folds in an assistant message's usage (Claude Code repeats a
// message's usage on each of its content blocks: the last one counts).
func (s *streamReader) runningUsage(id, model string, t cost.Tokens) {
	if s.running == nil {
		s.running = map[string]runningMsg{}
	}
	if id == "" {
		id = fmt.Sprintf("#%d", s.events) // no id: each event is its own message
	}
	s.running[id] = runningMsg{model: model, tokens: t}
	var sum cost.Tokens // summed afresh: the counts are the client's, and a difference of them could wrap
	for _, m := range s.running {
		sum = sum.Add(m.tokens)
	}
	s.checkTokens(sum.Total())
}

func (s *streamReader) checkTokens(total int64) {
	if s.maxTokens > 0 && total > s.maxTokens && !s.tokenOver {
		s.tokenOver = true
		if s.onTokens != nil {
			go s.onTokens() // never kill from inside the child's pipe write
		}
	}
}

// usage is what the run reported: the result event's usage, else (a run
// ended before its result) the assistant messages' so far, marked partial;
// nil when the client reported none.
func (s *streamReader) usage() *cost.Usage {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.final != nil {
		return s.final.Clone()
	}
	if len(s.running) == 0 {
		return nil
	}
	u := &cost.Usage{Models: map[string]cost.Tokens{}, Partial: true}
	for _, m := range s.running {
		u.Tokens = u.Tokens.Add(m.tokens)
		u.Models[m.model] = u.Models[m.model].Add(m.tokens)
	}
	return u
}

func (s *streamReader) call() {
	s.calls++
	if s.max > 0 && s.calls > s.max && !s.over {
		s.over = true
		if s.onOver != nil {
			go s.onOver() // never kill from inside the child's pipe write
		}
	}
}

// reply is the run's final text: the result event's, else what the
// assistant said.
func (s *streamReader) reply() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.result != "" {
		return s.result
	}
	return strings.TrimSpace(s.said.String())
}

func (s *streamReader) toolCalls() (int, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.calls, s.over
}

// refused names the refused tools and counts the refused calls.
func (s *streamReader) refused() ([]string, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.refusals.tools...), s.refusals.n
}

// serviceFailure says why the model's service failed the run: Claude Code's
// error type (rate_limit, overloaded, authentication_failed, billing_error,
// ...) or, failing that, the one its result's HTTP status means; "" if the
// service did not fail it.
func (s *streamReader) serviceFailure() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.serviceError
}

// statusError is the error type an HTTP status from the model's API means.
func statusError(code int) string {
	switch code {
	case 429:
		return "rate_limit"
	case 529, 503:
		return "overloaded"
	case 401, 403:
		return "authentication_failed"
	case 402:
		return "billing_error"
	}
	return ""
}
