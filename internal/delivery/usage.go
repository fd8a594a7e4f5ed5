package delivery

import "github.com/ai-heart/ai-heart/internal/cost"

// The usage fields of the clients' stream-json, as the installed clients
// write them (Claude Code 2.1.197, Gemini CLI 0.61.0; checked against runs
// with a model stand-in, see usage_test.go).

// claudeUsage is Claude Code's "usage" (an assistant message's, or the
// result's: the Messages API's usage object).
type claudeUsage struct {
	InputTokens              int64 `json:"input_tokens"`
	OutputTokens             int64 `json:"output_tokens"`
	CacheReadInputTokens     int64 `json:"cache_read_input_tokens"`
	CacheCreationInputTokens int64 `json:"cache_creation_input_tokens"`
	// Codex (the Responses API's counting): input_tokens includes the
	// cached ones, output_tokens the reasoning.
	CachedInputTokens     int64 `json:"cached_input_tokens"`
	CacheWriteInputTokens int64 `json:"cache_write_input_tokens"`
}

// codexTokens is Codex's turn usage by kind.
// A negative count stays negative (the ledger's vetting refuses it), and
// more cached than input tokens makes a negative input: no subtraction here
// can wrap or turn a forged figure into a plausible one.
func (u claudeUsage) codexTokens() cost.Tokens {
	in := u.InputTokens - u.CachedInputTokens
	if u.InputTokens < 0 || u.CachedInputTokens < 0 {
		in = min(u.InputTokens, u.CachedInputTokens)
	}
	return cost.Tokens{Input: in, Output: u.OutputTokens, CacheRead: u.CachedInputTokens, CacheWrite: u.CacheWriteInputTokens}
}

func (u claudeUsage) tokens() cost.Tokens {
	return cost.Tokens{Input: u.InputTokens, Output: u.OutputTokens, CacheRead: u.CacheReadInputTokens, CacheWrite: u.CacheCreationInputTokens}
}

// claudeModelUsage is one model's entry of the result's "modelUsage": every
// request of the run, side requests included.
type claudeModelUsage struct {
	InputTokens              int64 `json:"inputTokens"`
	OutputTokens             int64 `json:"outputTokens"`
	CacheReadInputTokens     int64 `json:"cacheReadInputTokens"`
	CacheCreationInputTokens int64 `json:"cacheCreationInputTokens"`
}

// geminiTokens is Gemini CLI's stats, whole or per model:
// input_tokens is the prompt (cached included), input the prompt not read
// from the cache, cached the part that was, output_tokens the candidates,
// and total_tokens adds the thinking (and tool-use prompt) tokens.
type geminiTokens struct {
	TotalTokens  int64 `json:"total_tokens"`
	InputTokens  int64 `json:"input_tokens"`
	OutputTokens int64 `json:"output_tokens"`
	Cached       int64 `json:"cached"`
	Input        int64 `json:"input"`
}

// tokens maps Gemini's counts to kinds: output is everything generated
// (total minus the prompt: candidates and thinking, both billed as output).
// A negative count stays negative for the ledger's vetting to refuse.
func (g geminiTokens) tokens() cost.Tokens {
	out := max(0, g.TotalTokens-g.InputTokens)
	if g.TotalTokens < 0 || g.InputTokens < 0 {
		out = min(g.TotalTokens, g.InputTokens)
	}
	return cost.Tokens{Input: g.Input, CacheRead: g.Cached, Output: out}
}

// geminiStats is the result event's "stats".
type geminiStats struct {
	geminiTokens
	Models map[string]geminiTokens `json:"models"`
}

// resultUsage reads a result event's usage; nil when it carries none.
func resultUsage(ev event) *cost.Usage {
	switch {
	case ev.Stats != nil: // Gemini CLI
		u := &cost.Usage{Tokens: ev.Stats.tokens()}
		if len(ev.Stats.Models) > 0 {
			u.Models = map[string]cost.Tokens{}
			for m, t := range ev.Stats.Models {
				u.Models[m] = t.tokens()
			}
		}
		return u
	case ev.ModelUsage != nil || ev.Usage != nil: // Claude Code
		u := &cost.Usage{}
		if ev.TotalCostUSD != nil {
			v := *ev.TotalCostUSD
			u.ReportedUSD = &v
		}
		if len(ev.ModelUsage) > 0 {
			u.Models = map[string]cost.Tokens{}
			for m, mu := range ev.ModelUsage {
				t := cost.Tokens{Input: mu.InputTokens, Output: mu.OutputTokens, CacheRead: mu.CacheReadInputTokens, CacheWrite: mu.CacheCreationInputTokens}
				u.Models[m] = t
				u.Tokens = u.Tokens.Add(t)
			}
			return u
		}
		u.Tokens = ev.Usage.tokens()
		return u
	}
	return nil
}
