package claudecode

import (
	"math"
	"strconv"

	"github.com/ai-heart/ai-heart/internal/clients/client"
	"github.com/ai-heart/ai-heart/internal/cost/tokens"
)

// Telemetry: Claude Code 2.1.197 names its events without its prefix in
// event.name (api_request, api_error, user_prompt, tool_result...), and
// they carry session.id, prompt.id and a per-session event.sequence.
func (Adapter) Telemetry() *client.OTLP {
	return &client.OTLP{Service: func(s string) bool { return s == "claude-code" }, Read: readTelemetry}
}

func readTelemetry(r client.Record) client.Reading {
	rd := client.Reading{Session: r.Attr("session.id"), Turn: r.Attr("prompt.id")}
	switch r.Name {
	case "api_request":
		rd.Kind, rd.Model = client.TeleUsage, r.Attr("model")
		rd.Tokens = tokens.Tokens{Input: r.Count("input_tokens"), Output: r.Count("output_tokens"),
			CacheRead: r.Count("cache_read_tokens"), CacheWrite: r.Count("cache_creation_tokens")}
		if v, err := strconv.ParseFloat(r.Attr("cost_usd"), 64); err == nil && !math.IsNaN(v) {
			rd.USD = &v
		}
		rd.Key = client.Key(Name, rd.Session, r.Attr("event.sequence"), r.Attr("event.timestamp"))
	case "api_error":
		rd.Kind, rd.Model = client.TeleError, r.Attr("model")
		rd.Error = client.First(r.Attr("status_code"), r.Attr("error"))
	}
	return rd
}
