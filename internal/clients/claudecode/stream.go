package claudecode

import (
	"encoding/json"

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
}

func line(typ string, l []byte) client.Step {
	var ev event
	var st client.Step
	if json.Unmarshal(l, &ev) != nil {
		return st
	}
	switch typ {
	case "system":
		if ev.Subtype == "init" {
			st.Model = &ev.Model
		}
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
