package web

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// RFC 7235 section 2.1: the auth scheme is case-insensitive.
func TestBearerSchemeAnyCase(t *testing.T) {
	src := newFake("alice")
	s := New(src, Options{Token: "s3cret", Pauser: src})
	for _, auth := range []string{"Bearer s3cret", "bearer s3cret", "BEARER s3cret", "bEaReR  s3cret"} {
		r := httptest.NewRequest("POST", "/api/v1/agents/alice/pause", strings.NewReader("{}"))
		r.Host = "127.0.0.1:9477"
		r.Header.Set("Authorization", auth)
		w := httptest.NewRecorder()
		s.ServeHTTP(w, r)
		if w.Code != http.StatusOK {
			t.Errorf("Authorization %q: %d %s, want 200", auth, w.Code, w.Body)
		}
	}
	for _, auth := range []string{"Basic s3cret", "Bearers3cret", "s3cret", "Bearer s3cre", "Bearer"} {
		r := httptest.NewRequest("POST", "/api/v1/agents/alice/pause", strings.NewReader("{}"))
		r.Host = "127.0.0.1:9477"
		r.Header.Set("Authorization", auth)
		w := httptest.NewRecorder()
		s.ServeHTTP(w, r)
		if w.Code != http.StatusUnauthorized {
			t.Errorf("Authorization %q: %d, want 401", auth, w.Code)
		}
	}
}
