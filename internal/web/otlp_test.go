package web

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// The clients' telemetry comes in as reads do: open on loopback (no web
// page reaches it through DNS rebinding: 421 for a foreign Host), the token
// off loopback; the agent named in the path reaches the receiver.
func TestOTLPGuardedAsReads(t *testing.T) {
	var got []string
	otlp := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = append(got, r.PathValue("agent")+" "+r.URL.Path)
	})
	do := func(s *Server, method, path, host, auth string) int {
		r := httptest.NewRequest(method, path, strings.NewReader("{}"))
		r.Host = host
		r.Header.Set("Content-Type", "application/json")
		if auth != "" {
			r.Header.Set("Authorization", auth)
		}
		w := httptest.NewRecorder()
		s.ServeHTTP(w, r)
		return w.Code
	}
	loop := New(newFake("alice"), Options{OTLP: otlp})
	for _, c := range []struct {
		method, path, host string
		want               int
	}{
		{"POST", "/v1/logs", "127.0.0.1:9477", 200},
		{"POST", "/v1/metrics", "localhost:9477", 200},
		{"POST", "/v1/traces", "127.0.0.1:9477", 200},
		{"POST", "/otlp/alice/v1/logs", "127.0.0.1:9477", 200},
		{"POST", "/v1/logs", "attacker.example:9477", http.StatusMisdirectedRequest},
		{"GET", "/v1/logs", "127.0.0.1:9477", http.StatusNotFound}, // the page's files
	} {
		if code := do(loop, c.method, c.path, c.host, ""); code != c.want {
			t.Errorf("loopback %s %s Host %s: %d, want %d", c.method, c.path, c.host, code, c.want)
		}
	}
	if len(got) != 4 || got[3] != "alice /otlp/alice/v1/logs" || got[0] != " /v1/logs" {
		t.Fatalf("receiver saw %q", got)
	}
	off := New(newFake("alice"), Options{OTLP: otlp, Token: "s3cret", ReadAuth: true})
	if code := do(off, "POST", "/v1/logs", "host.example:9477", ""); code != http.StatusUnauthorized {
		t.Fatalf("off loopback without the token: %d, want 401", code)
	}
	if code := do(off, "POST", "/v1/logs", "host.example:9477", "Bearer s3cret"); code != 200 {
		t.Fatalf("off loopback with the token: %d, want 200", code)
	}
	if none := New(newFake("alice"), Options{}); do(none, "POST", "/v1/logs", "127.0.0.1:9477", "") < 400 {
		t.Fatal("a window without a receiver took telemetry")
	}
}
