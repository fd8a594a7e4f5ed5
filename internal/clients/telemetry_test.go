package clients_test

import (
	"testing"

	"github.com/ai-heart/ai-heart/internal/clients"
)

// Each client's telemetry is found by the service.name it sends, and only
// by that: a service that merely starts like one is no client's.
func TestByService(t *testing.T) {
	for service, want := range map[string]string{
		"claude-code": "claude-code",
		"gemini-cli":  "gemini",
		"codex":       "codex",
		"codex_exec":  "codex",
		"codex-tui":   "codex",
		"codexx":      "",
		"claude":      "",
		"gemini":      "",
		"":            "",
	} {
		name, otlp := clients.ByService(service)
		if name != want || (otlp != nil) != (want != "") {
			t.Errorf("ByService(%q) = %q, %v; want %q", service, name, otlp != nil, want)
		}
	}
	// Every adapter that reads telemetry reads its own service's name back.
	for _, a := range clients.All() {
		if o := a.Telemetry(); o != nil && (o.Service == nil || o.Read == nil) {
			t.Errorf("%s: telemetry without a service or a reader", a.Name())
		}
	}
}
