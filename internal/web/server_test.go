package web

import (
	"bufio"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/state"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// fakeSource is a Source and Pauser over states set by the test.
type fakeSource struct {
	mu     sync.Mutex
	states map[string]state.State
	paused map[string]string
}

func newFake(names ...string) *fakeSource {
	f := &fakeSource{states: map[string]state.State{}, paused: map[string]string{}}
	for _, n := range names {
		f.states[n] = state.State{Agent: n, PulseAt: time.Now(), PulseInterval: config.Duration(time.Second), HeartbeatID: "20261122100000",
			Checks: map[string]state.CheckState{"inactivity": {Level: "ok"}}}
	}
	return f
}

func (f *fakeSource) Statuses() []state.State {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []state.State
	for _, s := range f.states {
		out = append(out, s)
	}
	return out
}

func (f *fakeSource) set(s state.State) {
	f.mu.Lock()
	f.states[s.Agent] = s
	f.mu.Unlock()
}

func (f *fakeSource) Pause(agent string, until time.Time, reason string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if _, ok := f.states[agent]; !ok {
		return ErrUnknownAgent
	}
	f.paused[agent] = reason
	return nil
}

func (f *fakeSource) Resume(agent string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if _, ok := f.states[agent]; !ok {
		return ErrUnknownAgent
	}
	delete(f.paused, agent)
	return nil
}

func do(t *testing.T, h http.Handler, method, path, token string) *httptest.ResponseRecorder {
	t.Helper()
	r := httptest.NewRequest(method, path, strings.NewReader(`{"reason":"lunch"}`))
	r.Host = "127.0.0.1:9477"
	if token != "" {
		r.Header.Set("Authorization", "Bearer "+token)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

func TestChangesNeedTheTokenEvenOnLoopback(t *testing.T) {
	src := newFake("alice")
	s := New(src, Options{Token: "s3cret", Pauser: src})
	if w := do(t, s, "POST", "/api/v1/agents/alice/pause", ""); w.Code != http.StatusUnauthorized {
		t.Fatalf("pause without token: %d", w.Code)
	}
	if w := do(t, s, "POST", "/api/v1/agents/alice/pause", "wrong"); w.Code != http.StatusUnauthorized {
		t.Fatalf("pause with wrong token: %d", w.Code)
	}
	if w := do(t, s, "POST", "/api/v1/agents/alice/pause", "s3cret"); w.Code != http.StatusOK || src.paused["alice"] != "lunch" {
		t.Fatalf("pause: %d %s, paused %v", w.Code, w.Body, src.paused)
	}
	if w := do(t, s, "POST", "/api/v1/agents/bob/pause", "s3cret"); w.Code != http.StatusNotFound {
		t.Fatalf("pause unknown agent: %d", w.Code)
	}
	if w := do(t, s, "POST", "/api/v1/agents/alice/resume", "s3cret"); w.Code != http.StatusOK || len(src.paused) != 0 {
		t.Fatalf("resume: %d, paused %v", w.Code, src.paused)
	}
	// Reads are open on loopback.
	if w := do(t, s, "GET", "/api/v1/status", ""); w.Code != http.StatusOK {
		t.Fatalf("status: %d", w.Code)
	}
	// With no token at all, nothing can be changed.
	open := New(src, Options{Pauser: src})
	if w := do(t, open, "POST", "/api/v1/agents/alice/pause", ""); w.Code != http.StatusForbidden {
		t.Fatalf("pause with no token configured: %d", w.Code)
	}
}

func TestReadsNeedTheTokenOffLoopback(t *testing.T) {
	if _, err := CheckListen("0.0.0.0:9477", ""); err == nil {
		t.Fatal("non-loopback listen without a token accepted")
	}
	if ra, err := CheckListen("0.0.0.0:9477", "t"); err != nil || !ra {
		t.Fatalf("non-loopback with token: readAuth %v err %v", ra, err)
	}
	if ra, err := CheckListen("127.0.0.1:9477", ""); err != nil || ra {
		t.Fatalf("loopback: readAuth %v err %v", ra, err)
	}
	if ra, err := CheckListen("[::1]:9477", ""); err != nil || ra {
		t.Fatalf("loopback v6: readAuth %v err %v", ra, err)
	}
	s := New(newFake("alice"), Options{Token: "t", ReadAuth: true})
	for _, p := range []string{"/", "/api/v1/status", "/api/v1/events"} {
		if w := do(t, s, "GET", p, ""); w.Code != http.StatusUnauthorized {
			t.Errorf("GET %s without token: %d", p, w.Code)
		}
	}
	if w := do(t, s, "GET", "/api/v1/status", "t"); w.Code != http.StatusOK {
		t.Errorf("status with token: %d", w.Code)
	}
}

func TestHealthz(t *testing.T) {
	src := newFake("alice", "bob")
	now := time.Now()
	s := New(src, Options{Now: func() time.Time { return now }})
	if w := do(t, s, "GET", "/healthz", ""); w.Code != http.StatusOK {
		t.Fatalf("fresh pulses: %d %s", w.Code, w.Body)
	}
	st := src.states["bob"]
	st.PulseAt = now.Add(-3 * time.Second) // more than two 1s intervals
	src.set(st)
	w := do(t, s, "GET", "/healthz", "")
	var body struct {
		OK     bool
		Reason string
	}
	if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil {
		t.Fatal(err)
	}
	if w.Code != http.StatusServiceUnavailable || body.OK || !strings.Contains(body.Reason, "bob") || strings.Contains(body.Reason, "alice") {
		t.Fatalf("stale bob: %d %s", w.Code, w.Body)
	}
}

func TestEventsStreamEachPublishedState(t *testing.T) {
	src := newFake("alice")
	s := New(src, Options{})
	ts := httptest.NewServer(s)
	defer ts.Close()
	resp, err := http.Get(ts.URL + "/api/v1/events")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("content type %q", ct)
	}
	rd := bufio.NewReader(resp.Body)
	next := func() (string, Agent) {
		t.Helper()
		var name string
		for {
			line, err := rd.ReadString('\n')
			if err != nil {
				t.Fatal(err)
			}
			if v, ok := strings.CutPrefix(line, "event: "); ok {
				name = strings.TrimSpace(v)
			}
			if v, ok := strings.CutPrefix(line, "data: "); ok {
				var a Agent
				if err := json.Unmarshal([]byte(v), &a); err != nil {
					t.Fatal(err)
				}
				return name, a
			}
		}
	}
	if name, a := next(); name != "status" || a.Agent != "alice" || a.HeartbeatID != "20261122100000" {
		t.Fatalf("first event %s %+v", name, a)
	}
	s.PublishAlert(Alert{Agent: "alice", Level: "error", Check: "inactivity", Message: "no proof"})
	if name, _ := next(); name != "alert" {
		t.Fatalf("second event %s", name)
	}
	s.Publish(state.State{Agent: "alice", HeartbeatID: workspace.ID("20261122100001")})
	name, a := next()
	if name != "status" || a.HeartbeatID != "20261122100001" || len(a.Alerts) != 1 {
		t.Fatalf("third event %s %+v", name, a)
	}
}

func TestPageIsEmbedded(t *testing.T) {
	s := New(newFake(), Options{})
	for _, p := range []string{"/", "/lines.js", "/strip.js", "/now.js", "/grid.js", "/app.js", "/style.css"} {
		w := do(t, s, "GET", p, "")
		if w.Code != http.StatusOK || w.Body.Len() == 0 {
			t.Errorf("GET %s: %d, %d bytes", p, w.Code, w.Body.Len())
		}
		if strings.Contains(w.Body.String(), "http://") || strings.Contains(w.Body.String(), "https://") {
			t.Errorf("%s loads something from the network", p)
		}
	}
}
