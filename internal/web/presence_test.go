package web

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// presenceSource judges presence itself, as the fleet view does.
type presenceSource struct {
	*fakeSource
	p map[string]Presence
}

func (s presenceSource) Presence(agent string) (Presence, bool) {
	p, ok := s.p[agent]
	return p, ok
}

var _ PresenceSource = presenceSource{}

func TestPresenceOverridesRunning(t *testing.T) {
	seen := time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)
	src := presenceSource{newFake("ann", "bob"), map[string]Presence{
		"ann": {Online: false, LastSeen: seen, Host: "h1", Reason: "its watchdog h1/7 went offline"},
	}}
	rec := httptest.NewRecorder()
	New(src, Options{}).ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "http://127.0.0.1:9478/api/v1/status", nil))
	var body struct{ Agents []Agent }
	if err := json.NewDecoder(rec.Body).Decode(&body); err != nil {
		t.Fatal(err)
	}
	got := map[string]Agent{}
	for _, a := range body.Agents {
		got[a.State.Agent] = a
	}
	if a := got["ann"]; a.Running || a.Presence == nil || a.Presence.Host != "h1" || !a.Presence.LastSeen.Equal(seen) {
		t.Errorf("ann = running %v presence %+v, want offline from h1, last seen %v", a.Running, a.Presence, seen)
	}
	if b := got["bob"]; !b.Running || b.Presence != nil {
		t.Errorf("bob = running %v presence %+v, want running by its pulse, no presence", b.Running, b.Presence)
	}
}
