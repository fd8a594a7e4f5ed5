package codex

import (
	"encoding/json"

	"github.com/ai-heart/ai-heart/internal/clients/client"
	"github.com/ai-heart/ai-heart/internal/cost/tokens"
)

// Exec: `codex exec --json` writes items (tool calls, the agent's message)
// and the turn's end with its usage. Its events name no model: prices
// cannot apply, tokens can.
func (Adapter) Exec() *client.Exec {
	return &client.Exec{
		Command: []string{"codex", "exec", "--skip-git-repo-check", "--json", "{prompt}"},
		Types:   []string{"item.started", "item.completed", "turn.completed"},
		Line:    line,
	}
}

// event is the part of an `exec --json` line that is read.
type event struct {
	Item *struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"item"`
	Usage *usage `json:"usage"`
}

func line(typ string, l []byte) client.Step {
	var ev event
	var st client.Step
	if json.Unmarshal(l, &ev) != nil {
		return st
	}
	switch typ {
	case "item.started": // a tool call begins
		if ev.Item != nil {
			switch ev.Item.Type {
			case "command_execution", "mcp_tool_call", "web_search", "file_change":
				st.Calls = 1
			}
		}
	case "item.completed": // the agent's message is the reply
		if ev.Item != nil && ev.Item.Type == "agent_message" {
			st.Reply = &ev.Item.Text
		}
	case "turn.completed": // the turn's usage, every step summed
		if ev.Usage != nil {
			st.Usage = &tokens.Usage{Tokens: ev.Usage.tokens()}
		}
	}
	return st
}

// usage is the Responses API's counting: input_tokens includes the cached
// ones, output_tokens the reasoning.
type usage struct {
	InputTokens           int64 `json:"input_tokens"`
	OutputTokens          int64 `json:"output_tokens"`
	CachedInputTokens     int64 `json:"cached_input_tokens"`
	CacheWriteInputTokens int64 `json:"cache_write_input_tokens"`
}

// tokens is the turn's usage by kind. A negative count stays negative (the
// ledger's vetting refuses it), and more cached than input tokens makes a
// negative input: no subtraction here can wrap or turn a forged figure into
// a plausible one.
func (u usage) tokens() tokens.Tokens {
	in := u.InputTokens - u.CachedInputTokens
	if u.InputTokens < 0 || u.CachedInputTokens < 0 {
		in = min(u.InputTokens, u.CachedInputTokens)
	}
	return tokens.Tokens{Input: in, Output: u.OutputTokens, CacheRead: u.CachedInputTokens, CacheWrite: u.CacheWriteInputTokens}
}
