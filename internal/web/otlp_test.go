package web

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/ai-heart/ai-heart/internal/telemetry"
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

// A post needs the agent's telemetry key in its path, on loopback too: a
// stranger's, or another project's client still exporting to the window's
// root, is refused before its body is read, and counted.
func TestOTLPNeedsTheAgentsKey(t *testing.T) {
	var took, refused []string
	rc := &telemetry.Receiver{
		Sink: func(agent string, recs []telemetry.Record) error { took = append(took, agent); return nil },
		Key: func(agent string) (string, error) {
			if agent == "alice" || agent == "" {
				return "0123456789abcdef0123456789abcdef", nil
			}
			return "", errors.New("no such agent")
		},
		Refused: func(agent string) { refused = append(refused, agent) },
	}
	s := New(newFake("alice"), Options{OTLP: rc})
	body := `{"resourceLogs":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"claude-code"}}]},"scopeLogs":[{"logRecords":[{"attributes":[{"key":"event.name","value":{"stringValue":"api_request"}}]}]}]}]}`
	for _, c := range []struct {
		path string
		want int
	}{
		{"/v1/logs", http.StatusUnauthorized},
		{"/otlp/alice/v1/logs", http.StatusUnauthorized},
		{"/otlp/alice/guess/v1/logs", http.StatusUnauthorized},
		{"/otlp/bob/0123456789abcdef0123456789abcdef/v1/logs", http.StatusNotFound},
		{"/otlp/alice/0123456789abcdef0123456789abcdef/v1/logs", http.StatusOK},
	} {
		r := httptest.NewRequest("POST", c.path, strings.NewReader(body))
		r.Host = "127.0.0.1:9477"
		r.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		s.ServeHTTP(w, r)
		if w.Code != c.want {
			t.Errorf("POST %s: %d %s, want %d", c.path, w.Code, w.Body, c.want)
		}
	}
	if len(took) != 1 || took[0] != "alice" || len(refused) != 3 {
		t.Fatalf("took %q, refused %q: want alice's keyed post taken, the three without the key counted", took, refused)
	}
}
