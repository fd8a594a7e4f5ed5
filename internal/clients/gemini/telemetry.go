package gemini

import (
	"github.com/ai-heart/ai-heart/internal/clients/client"
	"github.com/ai-heart/ai-heart/internal/cost/tokens"
)

// Telemetry: Gemini CLI 0.61.0's gemini_cli.api_response, one per model
// request (the router's too, role utility_router), with session.id and
// prompt_id.
func (Adapter) Telemetry() *client.OTLP {
	return &client.OTLP{Service: func(s string) bool { return s == "gemini-cli" }, Read: readTelemetry}
}

func readTelemetry(r client.Record) client.Reading {
	rd := client.Reading{Session: r.Attr("session.id"), Turn: r.Attr("prompt_id")}
	switch r.Name {
	case "gemini_cli.api_response":
		rd.Kind, rd.Model = client.TeleUsage, r.Attr("model")
		// As its stream-json's stats are read: the input count includes
		// what the cache served; output is the total less the input
		// (candidates and thinking, both billed as output).
		in, cached := r.Count("input_token_count"), r.Count("cached_content_token_count")
		total := r.Count("total_token_count")
		out := client.Less(total, in)
		if out < 0 && total >= 0 && in >= 0 {
			out = 0
		}
		rd.Tokens = tokens.Tokens{Input: client.Less(in, cached), CacheRead: cached, Output: out}
		rd.Key = client.Key(Name, rd.Session, rd.Turn, r.Attr("role"), r.Attr("event.timestamp"), r.Attr("duration_ms"))
	case "gemini_cli.api_error":
		rd.Kind, rd.Model = client.TeleError, r.Attr("model")
		rd.Error = client.First(r.Attr("status_code"), r.Attr("error.message"), r.Attr("error"))
	}
	return rd
}
