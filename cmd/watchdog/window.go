package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"path/filepath"
	"sync"
	"syscall"
	"time"

	"github.com/rs/zerolog"

	"github.com/ai-heart/ai-heart/internal/alert"
	"github.com/ai-heart/ai-heart/internal/asks"
	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/daemon"
	"github.com/ai-heart/ai-heart/internal/day"
	"github.com/ai-heart/ai-heart/internal/metrics"
	"github.com/ai-heart/ai-heart/internal/pause"
	"github.com/ai-heart/ai-heart/internal/state"
	"github.com/ai-heart/ai-heart/internal/telemetry"
	"github.com/ai-heart/ai-heart/internal/web"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// window is the operator's window of `watchdog run`: the HTTP server with
// the page, /metrics and the API, fed by the daemon's pulses and alerts.
type window struct {
	mu      sync.Mutex
	d       *daemon.Daemon // set once the daemon is built
	cfg     *config.Config
	web     *web.Server
	metrics *metrics.Metrics
	srv     *http.Server
	ln      net.Listener
	keys    map[string]string // each agent's telemetry key, once read
	// fields are the agents' field numbers as last read, at fieldsAt.
	fields   map[string]day.Field
	fieldsAt time.Time
	links    *asks.Links // the notifications' links to questions
}

// newWindow checks the http section and binds its address, so a bad one
// fails the start with a clear error. With no listen it returns nil.
func newWindow(cfg *config.Config, sink *alert.Sink) (*window, error) {
	if cfg.HTTP.Listen == "" {
		return nil, nil
	}
	token, err := web.ReadToken(cfg.HTTP.TokenFile)
	if err != nil {
		return nil, err
	}
	readAuth, err := web.CheckListen(cfg.HTTP.Listen, token)
	if err != nil {
		return nil, err
	}
	w := &window{cfg: cfg, links: asks.NewLinks()}
	for _, a := range cfg.AgentConfigs() {
		// Made at the start, so `watchdog init -c` finds it to write.
		if _, err := w.telemetryKey(a.DisplayName()); err != nil {
			return nil, fmt.Errorf("agent %s: %w", a.DisplayName(), err)
		}
	}
	w.metrics = metrics.New(w, nil)
	w.web = web.New(w, web.Options{Token: token, ReadAuth: readAuth, Pauser: w, Days: w, Logs: w, Metrics: w.metrics.Handler(),
		OTLP:  &telemetry.Receiver{Sink: w.telemetry, Key: w.telemetryKey, Refused: w.telemetryRefused},
		Asker: w, Links: w.links})
	sink.Subscribe(func(a alert.Alert) {
		w.metrics.Alert(a.Agent, a.Check, a.Level.String())
		w.web.PublishAlert(web.Alert{Time: a.Time, Agent: a.Agent, Level: a.Level.String(), Check: a.Check, Message: a.Message})
	})
	w.ln, err = web.Listen(cfg.HTTP.Listen, cfg.HTTP.MaxConnections)
	if errors.Is(err, syscall.EADDRINUSE) {
		return nil, fmt.Errorf("http.listen %s is taken, most likely by another watchdog: give this config a port of its own (http: {listen: \"127.0.0.1:9478\"}) and run `watchdog init -c` on its workspace again, so its clients' telemetry goes there; or run both agents from one config (agents: [...]). %w", cfg.HTTP.Listen, err)
	}
	if err != nil {
		return nil, fmt.Errorf("http.listen: %w", err)
	}
	w.srv = web.NewHTTPServer(w.web)
	return w, nil
}

// release frees the address of a window that never served: a start that
// failed after newWindow. Once serving, the server closes it when ctx ends.
func (w *window) release() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.d == nil {
		w.ln.Close()
	}
}

// Addr is the bound address (useful with port 0).
func (w *window) Addr() string { return w.ln.Addr().String() }

// serve runs the server until ctx ends.
func (w *window) serve(ctx context.Context, d *daemon.Daemon, log zerolog.Logger) {
	w.mu.Lock()
	w.d = d
	w.mu.Unlock()
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = w.srv.Shutdown(sctx) // event streams hold on; the close below ends them
		_ = w.srv.Close()
	}()
	go func() {
		log.Info().Str("listen", w.Addr()).Msg("status page, /metrics and API listening")
		if err := w.srv.Serve(w.ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Error().Err(err).Msg("http server stopped")
		}
	}()
}

// pulsed feeds one pulse to the page and the metrics.
func (w *window) pulsed(e daemon.PulseEvent) {
	w.metrics.Pulse(e.Agent, e.Took)
	w.web.Publish(e.State)
}

// Asks lists the questions the agents' clients wait on (none before the
// daemon runs).
func (w *window) Asks() []asks.Question {
	if d := w.daemon(); d != nil {
		return d.Asks()
	}
	return []asks.Question{}
}

// Answer hands a person's answer to the daemon.
func (w *window) Answer(agent, id string, dec asks.Decision, by asks.Credential) (asks.Question, error) {
	d := w.daemon()
	if d == nil {
		return asks.Question{}, asks.ErrUnknown
	}
	return d.Answer(agent, id, dec, by)
}

// Tell hands a person's words for an agent to the daemon.
func (w *window) Tell(agent, text string, urgent bool, by asks.Credential) (string, error) {
	d := w.daemon()
	if d == nil {
		return "", errors.New("the watchdog is starting")
	}
	return d.Tell(agent, text, urgent, by)
}

func (w *window) daemon() *daemon.Daemon {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.d
}

// telemetry hands what a client exported to the daemon, read as the
// watchdog reads each client's records.
func (w *window) telemetry(agent string, recs []telemetry.Record) error {
	w.mu.Lock()
	d := w.d
	w.mu.Unlock()
	if d == nil {
		return errors.New("the watchdog is starting")
	}
	return d.Telemetry(agent, telemetry.Read(recs))
}

// telemetryKey is the key the named agent's clients export with ("" names
// the only agent), made in its state folder on first use.
func (w *window) telemetryKey(name string) (string, error) {
	agents := w.cfg.AgentConfigs()
	if name == "" && len(agents) == 1 {
		name = agents[0].DisplayName()
	}
	a, err := w.agent(name)
	if err != nil {
		return "", fmt.Errorf("no agent %q here", name)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if k, ok := w.keys[name]; ok {
		return k, nil
	}
	k, err := telemetry.LoadKey(filepath.Join(a.StateDir(), telemetry.KeyFile), true)
	if err != nil {
		return "", err
	}
	if w.keys == nil {
		w.keys = map[string]string{}
	}
	w.keys[name] = k
	return k, nil
}

// telemetryRefused tells the daemon of a post without the agent's key.
func (w *window) telemetryRefused(name string) {
	w.mu.Lock()
	d := w.d
	w.mu.Unlock()
	if d != nil {
		d.TelemetryWithoutKey(name)
	}
}

// Statuses makes the window a web.Source and a metrics.Source.
func (w *window) Statuses() []state.State {
	w.mu.Lock()
	d := w.d
	w.mu.Unlock()
	if d == nil {
		return nil
	}
	return d.Statuses()
}

// Pause writes the agent's pause file; the daemon sees it within a pulse.
func (w *window) Pause(agent string, until time.Time, reason string) error {
	a, err := w.agent(agent)
	if err != nil {
		return err
	}
	return pause.Set(a.PauseFile(), pause.Pause{Since: time.Now(), Until: until, Reason: reason, By: "the page"})
}

// Resume removes the agent's pause file and ends a recovery that gave up.
func (w *window) Resume(agent string) error {
	a, err := w.agent(agent)
	if err != nil {
		return err
	}
	return pause.Resume(a.PauseFile(), time.Now())
}

func (w *window) agent(name string) (config.AgentConfig, error) {
	for _, a := range w.cfg.AgentConfigs() {
		if a.DisplayName() == name {
			return a, nil
		}
	}
	return config.AgentConfig{}, web.ErrUnknownAgent
}

// Day reads an agent's day for the page, a slot per 15 minutes: the last
// 24 hours, or a local day from its midnight.
func (w *window) Day(agent, date string) (web.DayView, error) {
	a, err := w.agent(agent)
	if err != nil {
		return web.DayView{}, err
	}
	loc := w.cfg.Location()
	now := time.Now()
	v, from, err := pageDay(agent, date, loc, now)
	if err != nil {
		return v, err
	}
	v.Marks, v.Slots, err = day.Load(a.StateDir(), loc, from, pageSlots, pageSlot, now)
	if f, ok := w.Fields()[agent]; ok {
		v.Numbers = &f
	}
	return v, err
}

// fieldsEvery is how long the field's numbers are kept before the day
// files are read again: /metrics and the page ask often, the numbers move
// slowly.
const fieldsEvery = 15 * time.Second

// Fields gives each agent's field numbers (metrics.FieldSource), read from
// its day files at most every fieldsEvery.
func (w *window) Fields() map[string]day.Field {
	w.mu.Lock()
	defer w.mu.Unlock()
	now := time.Now()
	if w.fields != nil && now.Sub(w.fieldsAt) < fieldsEvery {
		return w.fields
	}
	out := map[string]day.Field{}
	for _, a := range w.cfg.AgentConfigs() {
		if f, err := day.LoadField(a.StateDir(), w.cfg.Location(), now); err == nil {
			out[a.DisplayName()] = f
		}
	}
	w.fields, w.fieldsAt = out, now
	return out
}

// The page's strip: 96 quarter hours.
const (
	pageSlots = 96
	pageSlot  = 15 * time.Minute
)

// pageDay is the page's day view of agent without its marks and slots, and
// where its strip starts: the last 24 hours for date "", else that local
// day.
func pageDay(agent, date string, loc *time.Location, now time.Time) (web.DayView, time.Time, error) {
	v := web.DayView{Agent: agent, Span: web.SpanDay, Date: date, SlotMinutes: int(pageSlot / time.Minute)}
	if date == "" {
		v.Span, v.Date = web.SpanLast24h, now.In(loc).Format(time.DateOnly)
	}
	from, err := day.Start(loc, date, pageSlots, pageSlot, now)
	return v, from, err
}

// maxLogShown bounds an activity log the page shows.
const maxLogShown = 256 << 10

// Log reads an agent's activity log for the page through the workspace's
// one os.Root, the daemon's (no link leads out), without blocking on a
// FIFO, a regular file only, at most 256 KiB.
func (w *window) Log(agent, rel string) ([]byte, error) {
	if _, err := w.agent(agent); err != nil {
		return nil, err
	}
	w.mu.Lock()
	d := w.d
	w.mu.Unlock()
	var ws *workspace.Workspace
	if d != nil {
		ws = d.Workspace(agent)
	}
	if ws == nil {
		return nil, web.ErrUnknownAgent
	}
	return ws.ReadFile(rel, maxLogShown)
}
