package codex

import (
	"strings"

	"github.com/ai-heart/ai-heart/internal/clients/client"
	"github.com/ai-heart/ai-heart/internal/cost/tokens"
)

// Telemetry: Codex 0.169.0 is service codex_exec for `codex exec`,
// codex-tui interactively; its codex.sse_event of kind response.completed
// carries the token counts (a second one comes without them), keyed by
// conversation.id.
func (Adapter) Telemetry() *client.OTLP {
	return &client.OTLP{Service: func(s string) bool {
		return s == "codex" || strings.HasPrefix(s, "codex_") || strings.HasPrefix(s, "codex-")
	}, Read: readTelemetry}
}

func readTelemetry(r client.Record) client.Reading {
	rd := client.Reading{Session: r.Attr("conversation.id")}
	switch status := r.Attr("http.response.status_code"); {
	case r.Name == "codex.sse_event" && r.Attr("event.kind") == "response.completed" && r.Attr("input_token_count") != "":
		rd.Kind, rd.Model = client.TeleUsage, r.Attr("model")
		// OpenAI's input count includes the cached tokens.
		cached := r.Count("cached_token_count")
		rd.Tokens = tokens.Tokens{Input: client.Less(r.Count("input_token_count"), cached), CacheRead: cached,
			CacheWrite: r.Count("cache_write_token_count"), Output: r.Count("output_token_count")}
		rd.Key = client.Key(Name, rd.Session, r.Attr("event.timestamp"), r.Attr("input_token_count"), r.Attr("output_token_count"))
	case r.Name == "codex.api_request" && status != "" && !strings.HasPrefix(status, "2"):
		rd.Kind, rd.Model = client.TeleError, r.Attr("model")
		rd.Error = status
	}
	return rd
}
