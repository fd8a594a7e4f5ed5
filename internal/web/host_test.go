package web

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// DNS rebinding: a page on evil.example whose name now resolves to
// 127.0.0.1 reaches the loopback server with Host: evil.example. Without a
// token on reads, only loopback names may be asked for.
func TestLoopbackChecksHost(t *testing.T) {
	src := newFake("alice")
	s := New(src, Options{Token: "t", Pauser: src, Metrics: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {})})
	paths := []string{"/", "/api/v1/status", "/api/v1/events", "/metrics", "/healthz"}
	get := func(s http.Handler, host, path, token string) int {
		r := httptest.NewRequest("GET", path, nil)
		r.Host = host
		if token != "" {
			r.Header.Set("Authorization", "Bearer "+token)
		}
		w := httptest.NewRecorder()
		if path == "/api/v1/events" { // a stream: end it at once
			ctx, cancel := contextDone()
			defer cancel()
			r = r.WithContext(ctx)
		}
		s.ServeHTTP(w, r)
		return w.Code
	}
	for _, host := range []string{"evil.example:9477", "evil.example", "127.0.0.1.evil.example:9477", "localhost.evil.example", "10.0.0.1:9477"} {
		for _, p := range paths {
			if code := get(s, host, p, ""); code != http.StatusMisdirectedRequest {
				t.Errorf("GET %s with Host %q: %d, want 421", p, host, code)
			}
		}
		r := httptest.NewRequest("POST", "/api/v1/agents/alice/pause", strings.NewReader("{}"))
		r.Host = host
		r.Header.Set("Authorization", "Bearer t")
		w := httptest.NewRecorder()
		s.ServeHTTP(w, r)
		if w.Code != http.StatusMisdirectedRequest {
			t.Errorf("POST pause with Host %q: %d, want 421", host, w.Code)
		}
	}
	for _, host := range []string{"127.0.0.1:9477", "localhost:9477", "LOCALHOST:9477", "[::1]:9477", "127.0.0.2", "localhost", "watchdog.localhost:9477"} {
		for _, p := range paths {
			if code := get(s, host, p, ""); code != http.StatusOK && !(p == "/healthz" && code == http.StatusServiceUnavailable) {
				t.Errorf("GET %s with Host %q: %d, want 200", p, host, code)
			}
		}
	}
	// Off loopback every request needs the token, which a rebinding page
	// does not have: the server's own names are not known, so any Host goes.
	guarded := New(src, Options{Token: "t", ReadAuth: true})
	if code := get(guarded, "watchdog.example.org:9477", "/api/v1/status", "t"); code != http.StatusOK {
		t.Errorf("token-guarded server, Host watchdog.example.org: %d, want 200", code)
	}
}

func contextDone() (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	return ctx, cancel
}
