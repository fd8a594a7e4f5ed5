package claudecode

import (
	"encoding/json"
	"slices"
	"strings"
	"time"

	"github.com/ai-heart/ai-heart/internal/clients/client"
	"github.com/ai-heart/ai-heart/internal/cost/tokens"
)

// Exec: `claude -p` with --output-format stream-json (--verbose is needed
// for it) writes a system init naming the model, each assistant message
// with its usage, and a result with the run's usage and price.
func (Adapter) Exec() *client.Exec {
	return &client.Exec{
		Command: []string{"claude", "-p", "{prompt}", "--output-format", "stream-json", "--verbose"},
		Priced:  true,
		Types:   []string{"system", "assistant", "result"},
		Line:    line,
		// Since 2.1.259 (not in 2.1.197; in 2.1.337's --help): anything
		// that would prompt a person is denied at once, so an unattended
		// run never hangs on a dialog; the permission mode still decides
		// the rest.
		Optional: []client.Flag{{Help: "--permission-prompts", Args: []string{"--permission-prompts", "none"}}},
	}
}

// event is the part of a stream-json line that is read:
// {"type":"assistant","message":{"content":[{"type":"tool_use"},...]}} and
// {"type":"result","result":"..."}.
type event struct {
	Subtype string `json:"subtype"`
	Model   string `json:"model"` // system init: the session's model
	Message *struct {
		ID      string `json:"id"`
		Model   string `json:"model"`
		Content []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
		Usage *usage `json:"usage"`
	} `json:"message"`
	Result       json.RawMessage       `json:"result"`
	Usage        *usage                `json:"usage"`
	TotalCostUSD *float64              `json:"total_cost_usd"`
	ModelUsage   map[string]modelUsage `json:"modelUsage"`
	// A failed request's cause is named on the assistant event
	// ("error":"rate_limit"), its HTTP status on the result.
	Error             json.RawMessage `json:"error"`
	IsError           bool            `json:"is_error"`
	APIErrorStatus    int             `json:"api_error_status"`
	PermissionDenials []struct {
		ToolName string `json:"tool_name"`
	} `json:"permission_denials"`
	// Read in 2.1.197 and 2.1.337 (the binaries' schemas): system
	// session_state_changed's state (sent only with
	// CLAUDE_CODE_EMIT_SESSION_STATE_EVENTS set), api_retry's
	// retry_delay_ms and error, result's terminal_reason; 2.1.337's
	// session_writes_lost's error_code and lost. Raw: a field of a wrong
	// type loses that field, never the line.
	State          json.RawMessage `json:"state"`
	RetryDelayMS   json.RawMessage `json:"retry_delay_ms"`
	TerminalReason json.RawMessage `json:"terminal_reason"`
	ErrorCode      json.RawMessage `json:"error_code"`
	Lost           json.RawMessage `json:"lost"`
}

// maxRetryWait bounds a retry wait the stream announces: a longer one is
// read as this (the watchdog bounds it further).
const maxRetryWait = 24 * time.Hour

// system reads a system event's state, retry and lost writes.
func system(ev event, st *client.Step) {
	switch ev.Subtype {
	case "init":
		st.Model = &ev.Model
	case "session_state_changed":
		st.State = wordOf(ev.State, "idle", "running", "requires_action")
	case "api_retry":
		st.Retrying = true
		var ms float64
		if json.Unmarshal(ev.RetryDelayMS, &ms) == nil && ms > 0 {
			st.RetryWait = time.Duration(min(ms, float64(maxRetryWait/time.Millisecond))) * time.Millisecond
		}
		var why string
		if json.Unmarshal(ev.Error, &why) == nil && why == "rate_limit" {
			st.FailureIfNone = why // a retry that fails at last fails for it
		}
	case "session_writes_lost":
		code := wordOf(ev.ErrorCode, "ENOSPC", "EDQUOT")
		if code == "" {
			code = "unknown"
		}
		var lost []string
		json.Unmarshal(ev.Lost, &lost)
		var what []string
		for _, w := range []string{"transcript", "global_config"} {
			if slices.Contains(lost, w) {
				what = append(what, w)
			}
		}
		st.WritesLost = code
		if len(what) > 0 {
			st.WritesLost += ": " + strings.Join(what, ", ")
		}
	}
}

// wordOf is raw's string when it is one of words, else "".
func wordOf(raw json.RawMessage, words ...string) string {
	var s string
	if json.Unmarshal(raw, &s) != nil || !slices.Contains(words, s) {
		return ""
	}
	return s
}

// terminalReasons are the values of result.terminal_reason in 2.1.337
// (2.1.197 has the first fifteen): another is read as "other".
var terminalReasons = []string{"blocking_limit", "rapid_refill_breaker", "prompt_too_long", "image_error", "model_error", "api_error",
	"malformed_tool_use_exhausted", "aborted_streaming", "aborted_tools", "stop_hook_prevented", "hook_stopped", "tool_deferred",
	"max_turns", "background_requested", "completed", "budget_exhausted", "structured_output_retry_exhausted",
	"tool_deferred_unavailable", "turn_setup_failed"}

func line(typ string, l []byte) client.Step {
	var ev event
	var st client.Step
	if json.Unmarshal(l, &ev) != nil {
		return st
	}
	switch typ {
	case "system":
		system(ev, &st)
	case "assistant":
		var why string
		if json.Unmarshal(ev.Error, &why) == nil {
			st.Failure = why
		}
		if m := ev.Message; m != nil {
			if m.Usage != nil {
				st.Message = &client.Message{ID: m.ID, Model: m.Model, Tokens: m.Usage.tokens()}
			}
			for _, c := range m.Content {
				switch c.Type {
				case "tool_use":
					st.Calls++
				case "text":
					st.Said += c.Text
				}
			}
		}
	case "result":
		if ev.IsError {
			st.FailureIfNone = statusError(ev.APIErrorStatus)
		}
		if len(ev.TerminalReason) > 0 && string(ev.TerminalReason) != "null" {
			if st.Ended = wordOf(ev.TerminalReason, terminalReasons...); st.Ended == "" {
				st.Ended = "other"
			}
		}
		if st.Ended == "blocking_limit" || st.Ended == "rapid_refill_breaker" {
			st.FailureIfNone = "rate_limit" // the usage limit ended it: the service asks for a rest
		}
		for _, d := range ev.PermissionDenials {
			st.Refused = append(st.Refused, d.ToolName)
		}
		var text string
		if json.Unmarshal(ev.Result, &text) == nil && text != "" {
			st.Reply = &text
		}
		st.Usage = resultUsage(ev)
	}
	return st
}

// resultUsage is the result's usage: by model from modelUsage (every
// request of the run, side requests included), else the usage object; nil
// when it has neither.
func resultUsage(ev event) *tokens.Usage {
	if ev.ModelUsage == nil && ev.Usage == nil {
		return nil
	}
	u := &tokens.Usage{}
	if ev.TotalCostUSD != nil {
		v := *ev.TotalCostUSD
		u.ReportedUSD = &v
	}
	if len(ev.ModelUsage) > 0 {
		u.Models = map[string]tokens.Tokens{}
		for m, mu := range ev.ModelUsage {
			t := tokens.Tokens{Input: mu.InputTokens, Output: mu.OutputTokens, CacheRead: mu.CacheReadInputTokens, CacheWrite: mu.CacheCreationInputTokens}
			u.Models[m] = t
			u.Tokens = u.Tokens.Add(t)
		}
		return u
	}
	u.Tokens = ev.Usage.tokens()
	return u
}

// usage is an assistant message's or the result's "usage" (the Messages
// API's usage object).
type usage struct {
	InputTokens              int64 `json:"input_tokens"`
	OutputTokens             int64 `json:"output_tokens"`
	CacheReadInputTokens     int64 `json:"cache_read_input_tokens"`
	CacheCreationInputTokens int64 `json:"cache_creation_input_tokens"`
}

func (u *usage) tokens() tokens.Tokens {
	if u == nil {
		return tokens.Tokens{}
	}
	return tokens.Tokens{Input: u.InputTokens, Output: u.OutputTokens, CacheRead: u.CacheReadInputTokens, CacheWrite: u.CacheCreationInputTokens}
}

// modelUsage is one model's entry of the result's "modelUsage".
type modelUsage struct {
	InputTokens              int64 `json:"inputTokens"`
	OutputTokens             int64 `json:"outputTokens"`
	CacheReadInputTokens     int64 `json:"cacheReadInputTokens"`
	CacheCreationInputTokens int64 `json:"cacheCreationInputTokens"`
}
