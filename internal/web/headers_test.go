package web

import (
	"net/http"
	"strings"
	"testing"
)

// Every answer, the page's and the API's alike, forbids framing and
// inline or foreign code and sends no referrer.
func TestSecurityHeaders(t *testing.T) {
	s := New(newFake("alice"), Options{Token: "t", Pauser: newFake("alice"), Metrics: http.NotFoundHandler()})
	for _, tt := range []struct{ method, path, token string }{
		{"GET", "/", ""}, {"GET", "/app.js", ""}, {"GET", "/api/v1/status", ""}, {"GET", "/healthz", ""},
		{"POST", "/api/v1/agents/alice/pause", ""}, // a 401 too
		{"GET", "/nowhere", ""},
	} {
		w := do(t, s, tt.method, tt.path, tt.token)
		h := w.Header()
		csp := h.Get("Content-Security-Policy")
		for _, want := range []string{"default-src 'none'", "script-src 'self'", "frame-ancestors 'none'"} {
			if !strings.Contains(csp, want) {
				t.Errorf("%s %s (%d): Content-Security-Policy %q lacks %q", tt.method, tt.path, w.Code, csp, want)
			}
		}
		if got := h.Get("X-Frame-Options"); got != "DENY" {
			t.Errorf("%s %s: X-Frame-Options %q, want DENY", tt.method, tt.path, got)
		}
		if got := h.Get("Referrer-Policy"); got != "no-referrer" {
			t.Errorf("%s %s: Referrer-Policy %q, want no-referrer", tt.method, tt.path, got)
		}
	}
}
