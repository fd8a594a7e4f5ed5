// Package web is the operator's window: one HTTP server with the status page
// (embedded, no build step, nothing from the network), live updates over
// Server-Sent Events, /healthz, /api/v1/status, pause and resume, and a slot
// for /metrics. It knows nothing of the daemon: anything that can list agent
// states and publish updates (the daemon, or a fleet view fed over MQTT) is a
// Source.
package web

import (
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/ai-heart/ai-heart/internal/asks"
	"github.com/ai-heart/ai-heart/internal/state"
)

//go:embed static
var static embed.FS

// Source lists the current state of every agent shown.
type Source interface {
	Statuses() []state.State
}

// Presence is how a fleet view judges an agent it follows from afar.
type Presence struct {
	Online   bool      `json:"online"`
	LastSeen time.Time `json:"last_seen"`
	Host     string    `json:"host,omitempty"`
	Reason   string    `json:"reason,omitempty"` // why it is offline
}

// PresenceSource is a Source that judges presence itself (the fleet view):
// the page then shows its verdict rather than guessing from pulse times.
type PresenceSource interface {
	Presence(agent string) (Presence, bool)
}

// Pauser pauses and resumes agents; a read-only source has none.
type Pauser interface {
	Pause(agent string, until time.Time, reason string) error
	Resume(agent string) error
}

// ErrUnknownAgent is returned by a Pauser for a name it does not run.
var ErrUnknownAgent = errors.New("unknown agent")

// Options configure a Server.
type Options struct {
	// Token, when set, is required as "Authorization: Bearer" on every
	// request that changes something, and on reads when ReadAuth is set.
	Token    string
	ReadAuth bool
	Pauser   Pauser       // nil: the pause endpoints answer 501
	Days     Days         // nil: the day endpoint answers 501
	Logs     Logs         // nil: the log endpoint answers 501
	Metrics  http.Handler // nil: no /metrics
	// OTLP takes the clients' OpenTelemetry exports (POST /v1/logs,
	// /v1/metrics, /v1/traces, and the same under /otlp/{agent}/ and
	// /otlp/{agent}/{key}/); nil: none. Guarded as reads are (open on
	// loopback, the token off it), and by the agent's key, which the
	// handler checks.
	OTLP http.Handler
	// Asker answers the clients' questions (the page's cards, a
	// notification's link) and takes a person's words for an agent; nil:
	// those endpoints answer 501. Links checks the links' tokens.
	Asker Asker
	Links *asks.Links
	Now   func() time.Time
	// AlertsKept is how many alerts per agent the page shows (default 20).
	AlertsKept int
}

// Server serves the window. Publish and PublishAlert feed it; it fans each
// update out to every connected page without ever blocking the publisher.
type Server struct {
	src  Source
	opts Options
	mux  *http.ServeMux
	hub  *hub

	mu     sync.Mutex
	alerts map[string][]Alert // newest last, at most AlertsKept per agent
}

// Alert is one alert as the page shows it.
type Alert struct {
	Time    time.Time `json:"time"`
	Agent   string    `json:"agent"`
	Level   string    `json:"level"`
	Check   string    `json:"check"`
	Message string    `json:"message"`
}

// Agent is one agent in /api/v1/status: its state file plus recent alerts.
type Agent struct {
	state.State
	Running  bool      `json:"running"`
	Alerts   []Alert   `json:"alerts"`
	Presence *Presence `json:"presence,omitempty"`
}

// New builds a server over src.
func New(src Source, o Options) *Server {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.AlertsKept <= 0 {
		o.AlertsKept = 20
	}
	s := &Server{src: src, opts: o, mux: http.NewServeMux(), hub: newHub(), alerts: map[string][]Alert{}}
	files, _ := fs.Sub(static, "static")
	s.mux.Handle("GET /", s.read(http.FileServerFS(files)))
	s.mux.Handle("GET /healthz", http.HandlerFunc(s.healthz)) // for probes: never behind the token
	s.mux.Handle("GET /api/v1/status", s.read(http.HandlerFunc(s.status)))
	s.mux.Handle("GET /api/v1/events", s.read(http.HandlerFunc(s.events)))
	s.mux.Handle("GET /api/v1/agents/{name}/day", s.read(http.HandlerFunc(s.dayView)))
	s.mux.Handle("GET /api/v1/agents/{name}/log", s.read(http.HandlerFunc(s.logText)))
	s.mux.Handle("POST /api/v1/agents/{name}/pause", s.write(http.HandlerFunc(s.pause)))
	s.mux.Handle("POST /api/v1/agents/{name}/resume", s.write(http.HandlerFunc(s.resume)))
	s.routeAsks()
	if o.Metrics != nil {
		s.mux.Handle("GET /metrics", s.read(o.Metrics))
	}
	if o.OTLP != nil {
		for _, sig := range []string{"logs", "metrics", "traces"} {
			s.mux.Handle("POST /v1/"+sig, s.read(o.OTLP))
			s.mux.Handle("POST /otlp/{agent}/v1/"+sig, s.read(o.OTLP))
			s.mux.Handle("POST /otlp/{agent}/{key}/v1/"+sig, s.read(o.OTLP))
		}
	}
	return s
}

// csp lets the page run only its own files: no inline or foreign code, no
// framing (clickjacking the pause button), no form posts elsewhere. The
// favicon is a data: URL.
const csp = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
	"base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// ServeHTTP makes the server an http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Security-Policy", csp)
	h.Set("X-Frame-Options", "DENY") // frame-ancestors for browsers without CSP 2
	h.Set("Referrer-Policy", "no-referrer")
	// DNS rebinding: a page on attacker.example, its name now resolving to
	// 127.0.0.1, reaches a loopback server as Host: attacker.example and
	// reads what is open without a token. Off loopback every request needs
	// the token, which such a page lacks.
	if !s.opts.ReadAuth && !loopbackName(r.Host) {
		writeJSON(w, http.StatusMisdirectedRequest, map[string]any{"error": "this server answers only to localhost and loopback addresses"})
		return
	}
	s.mux.ServeHTTP(w, r)
}

// Publish sends an agent's new state to every page (one event per pulse).
func (s *Server) Publish(st state.State) {
	if !s.hub.listening() {
		return
	}
	s.hub.send(event{name: "status", data: mustJSON(s.agent(st))})
}

// PublishAlert records an alert for the page and sends it live.
func (s *Server) PublishAlert(a Alert) {
	s.mu.Lock()
	l := append(s.alerts[a.Agent], a)
	if len(l) > s.opts.AlertsKept {
		l = append([]Alert(nil), l[len(l)-s.opts.AlertsKept:]...)
	}
	s.alerts[a.Agent] = l
	s.mu.Unlock()
	if s.hub.listening() {
		s.hub.send(event{name: "alert", data: mustJSON(a)})
	}
}

func (s *Server) agent(st state.State) Agent {
	s.mu.Lock()
	al := append([]Alert{}, s.alerts[st.Agent]...)
	s.mu.Unlock()
	a := Agent{State: st, Running: st.Running(s.opts.Now()), Alerts: al}
	if ps, ok := s.src.(PresenceSource); ok {
		if p, ok := ps.Presence(st.Agent); ok {
			a.Presence, a.Running = &p, p.Online
		}
	}
	return a
}

func (s *Server) status(w http.ResponseWriter, r *http.Request) {
	var out []Agent
	for _, st := range s.src.Statuses() {
		out = append(out, s.agent(st))
	}
	if out == nil {
		out = []Agent{}
	}
	writeJSON(w, http.StatusOK, map[string]any{"agents": out, "pausable": s.opts.Pauser != nil, "answerable": s.opts.Asker != nil})
}

// healthz is 200 while every agent has pulsed within two intervals and
// the watchdog's writes succeed (a full disk is not healthy).
func (s *Server) healthz(w http.ResponseWriter, r *http.Request) {
	now := s.opts.Now()
	var stale, failing []string
	sts := s.src.Statuses()
	for _, st := range sts {
		if !st.Running(now) {
			stale = append(stale, st.Agent)
		}
		if o := st.Chambers.Pulse.WritesFailing; o != nil {
			failing = append(failing, fmt.Sprintf("%s (its %s, since %s: %s)", st.Agent, o.What, o.Since.Format(time.RFC3339), o.Error))
		}
	}
	switch {
	case len(failing) > 0:
		writeJSON(w, http.StatusServiceUnavailable, map[string]any{"ok": false, "reason": "the watchdog's writes fail: " + strings.Join(failing, "; ")})
	case len(sts) == 0:
		writeJSON(w, http.StatusServiceUnavailable, map[string]any{"ok": false, "reason": "no agent has pulsed yet"})
	case len(stale) > 0:
		writeJSON(w, http.StatusServiceUnavailable, map[string]any{"ok": false,
			"reason": "no pulse within two intervals: " + strings.Join(stale, ", "), "agents": stale})
	default:
		writeJSON(w, http.StatusOK, map[string]any{"ok": true, "agents": len(sts)})
	}
}

// events streams "status" and "alert" events. It starts with the current
// status of every agent, so a page needs no other request to draw.
func (s *Server) events(w http.ResponseWriter, r *http.Request) {
	fl, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "streaming unsupported", http.StatusInternalServerError)
		return
	}
	ch, cancel := s.hub.subscribe()
	defer cancel()
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	for _, st := range s.src.Statuses() {
		writeEvent(w, event{name: "status", data: mustJSON(s.agent(st))})
	}
	fl.Flush()
	keep := time.NewTicker(15 * time.Second) // keeps proxies from closing an idle stream
	defer keep.Stop()
	for {
		select {
		case <-r.Context().Done():
			return
		case e, ok := <-ch:
			if !ok {
				return // too slow a reader: the browser reconnects
			}
			writeEvent(w, e)
			fl.Flush()
		case <-keep.C:
			fmt.Fprint(w, ": keep-alive\n\n")
			fl.Flush()
		}
	}
}

func (s *Server) pause(w http.ResponseWriter, r *http.Request) {
	if s.opts.Pauser == nil {
		writeJSON(w, http.StatusNotImplemented, map[string]any{"error": "this source cannot pause agents"})
		return
	}
	var req struct {
		For    string    `json:"for"`
		Until  time.Time `json:"until"`
		Reason string    `json:"reason"`
	}
	if r.ContentLength != 0 {
		if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 4096)).Decode(&req); err != nil {
			writeJSON(w, http.StatusBadRequest, map[string]any{"error": "body: " + err.Error()})
			return
		}
	}
	until := req.Until
	if req.For != "" {
		d, err := time.ParseDuration(req.For)
		if err != nil || d <= 0 {
			writeJSON(w, http.StatusBadRequest, map[string]any{"error": fmt.Sprintf("for: %q is not a positive duration like 2h", req.For)})
			return
		}
		until = s.opts.Now().Add(d)
	}
	s.act(w, r.PathValue("name"), func(name string) error { return s.opts.Pauser.Pause(name, until, req.Reason) })
}

func (s *Server) resume(w http.ResponseWriter, r *http.Request) {
	if s.opts.Pauser == nil {
		writeJSON(w, http.StatusNotImplemented, map[string]any{"error": "this source cannot resume agents"})
		return
	}
	s.act(w, r.PathValue("name"), s.opts.Pauser.Resume)
}

func (s *Server) act(w http.ResponseWriter, name string, f func(string) error) {
	switch err := f(name); {
	case errors.Is(err, ErrUnknownAgent):
		writeJSON(w, http.StatusNotFound, map[string]any{"error": fmt.Sprintf("no agent named %q", name)})
	case err != nil:
		writeJSON(w, http.StatusInternalServerError, map[string]any{"error": err.Error()})
	default:
		writeJSON(w, http.StatusOK, map[string]any{"ok": true, "agent": name})
	}
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(v)
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // only plain data types go through here
	}
	return b
}
