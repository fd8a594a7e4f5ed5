package gemini

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/ai-heart/ai-heart/internal/clients/client"
	"github.com/ai-heart/ai-heart/internal/cost/tokens"
)

// Exec: `gemini -p` with --output-format stream-json writes
// {"type":"tool_use",...}, its {"type":"tool_result",...},
// {"type":"message","role":"assistant","content":"..."} and a result with
// the run's stats. It does not price its runs.
func (Adapter) Exec() *client.Exec {
	return &client.Exec{
		Command: []string{"gemini", "-p", "{prompt}", "--output-format", "stream-json"},
		Price:   "gemini-2.5-pro: {input: 1.25, output: 10, cached: 0.31}",
		Types:   []string{"tool_use", "tool_result", "message", "result"},
		Line:    line,
		Chatter: chatter,
	}
}

// chatter is a line Gemini CLI prints on stdout of its own: its telemetry
// exporter's give-ups (OpenTelemetry's diag.info, which the CLI logs at
// INFO to stdout), after the model's reply when the export's endpoint
// does not answer. Whole lines of the bundle's exact shapes only.
func chatter(l string) bool {
	var a, b int
	if _, err := fmt.Sscanf(l, exportRetry, &a, &b); err == nil && l == fmt.Sprintf(exportRetry, a, b) {
		return true
	}
	if _, err := fmt.Sscanf(l, exportFailed, &a); err == nil && l == fmt.Sprintf(exportFailed, a) {
		return true
	}
	return strings.HasPrefix(l, "Export failed with non-retryable error: ")
}

// The exporter's give-ups, as @opentelemetry/otlp-exporter-base in
// Gemini CLI 0.61's bundle words them.
const (
	exportRetry  = "Export retry time %dms exceeds remaining timeout %dms, not retrying further."
	exportFailed = "Export failed after maximum retry attempts (%d)."
)

// event is the part of a stream-json line that is read.
type event struct {
	Role     string          `json:"role"`
	Content  json.RawMessage `json:"content"`
	Response string          `json:"response"`
	Stats    *stats          `json:"stats"`
	ToolName string          `json:"tool_name"`
	ToolID   string          `json:"tool_id"`
	Status   string          `json:"status"`
	Error    json.RawMessage `json:"error"` // tool_result: {"type":"policy_violation"}
}

func line(typ string, l []byte) client.Step {
	var ev event
	var st client.Step
	if json.Unmarshal(l, &ev) != nil {
		return st
	}
	switch typ {
	case "tool_use":
		st.Calls = 1
		if ev.ToolID != "" && ev.ToolName != "" {
			st.Begin = &client.Call{ID: ev.ToolID, Tool: ev.ToolName}
		}
	case "tool_result":
		st.Result = &client.CallResult{ID: ev.ToolID, Refused: ev.Status == "error" && refusal(ev.Error)}
	case "message":
		var text string
		if ev.Role == "assistant" && json.Unmarshal(ev.Content, &text) == nil {
			st.Said = text
		}
	case "result":
		if ev.Response != "" {
			st.Reply = &ev.Response
		}
		if ev.Stats != nil {
			u := &tokens.Usage{Tokens: ev.Stats.tokens()}
			if len(ev.Stats.Models) > 0 {
				u.Models = map[string]tokens.Tokens{}
				for m, t := range ev.Stats.Models {
					u.Models[m] = t.tokens()
				}
			}
			st.Usage = u
		}
	}
	return st
}

// refusal reports a tool_result error of a refusal's type. Gemini CLI 0.61
// answers a refused call with status "error": headless, a tool that needs
// approval is left out of its registry (tool_not_registered), and one its
// policy denies is a policy_violation.
func refusal(errField json.RawMessage) bool {
	var e struct {
		Type string `json:"type"`
	}
	if json.Unmarshal(errField, &e) != nil {
		return false
	}
	return e.Type == "tool_not_registered" || e.Type == "policy_violation"
}

// counts is Gemini CLI's stats, whole or per model: input_tokens is the
// prompt (cached included), input the prompt not read from the cache,
// cached the part that was, output_tokens the candidates, and total_tokens
// adds the thinking (and tool-use prompt) tokens.
type counts struct {
	TotalTokens  int64 `json:"total_tokens"`
	InputTokens  int64 `json:"input_tokens"`
	OutputTokens int64 `json:"output_tokens"`
	Cached       int64 `json:"cached"`
	Input        int64 `json:"input"`
}

// tokens maps the counts to kinds: output is everything generated (total
// minus the prompt: candidates and thinking, both billed as output). A
// negative count stays negative for the ledger's vetting to refuse.
func (g counts) tokens() tokens.Tokens {
	out := max(0, g.TotalTokens-g.InputTokens)
	if g.TotalTokens < 0 || g.InputTokens < 0 {
		out = min(g.TotalTokens, g.InputTokens)
	}
	return tokens.Tokens{Input: g.Input, CacheRead: g.Cached, Output: out}
}

// stats is the result event's "stats".
type stats struct {
	counts
	Models map[string]counts `json:"models"`
}
