package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/day"
	"github.com/ai-heart/ai-heart/internal/fleet"
	"github.com/ai-heart/ai-heart/internal/metrics"
	"github.com/ai-heart/ai-heart/internal/state"
	"github.com/ai-heart/ai-heart/internal/web"
)

// defaultFleetListen is the fleet view's address; a watchdog's own page is
// on 9477, so both can run on one machine.
const defaultFleetListen = "127.0.0.1:9478"

// runFleet is `watchdog fleet --mqtt URL [--http ADDR] [-c FILE]`: the
// operator's-window page and /metrics for every agent on the broker. The
// mqtt section of -c gives the credentials, TLS and topic prefix; --mqtt
// overrides its broker. It only reads: nothing it does reaches an agent.
func runFleet(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("fleet", flag.ContinueOnError)
	load := configFlag(fs)
	broker := fs.String("mqtt", "", "the broker's `URL` (tcp://, ssl://, ws://, wss://); default mqtt.broker of -c")
	listen := fs.String("http", defaultFleetListen, "serve the page and /metrics on `ADDR`")
	format := fs.String("log-format", "auto", "the stderr log's `FORMAT`: auto, json, console")
	level := fs.String("log-level", "info", "the log `LEVEL`: debug, info, warn, error")
	if code, ok := parseFlags(fs, args, stderr); !ok {
		return code
	}
	log, err := newLogger(stderr, *format, *level)
	if err != nil {
		fmt.Fprintf(stderr, "watchdog fleet: %v\n", err)
		return 2
	}
	log = log.With().Timestamp().Logger()
	cfg, m, err := fleetConfig(load, *broker)
	if err != nil {
		fmt.Fprintf(stderr, "watchdog fleet: %v\n", err)
		return 2
	}
	token, err := web.ReadToken(cfg.HTTP.TokenFile)
	if err != nil {
		fmt.Fprintf(stderr, "watchdog fleet: %v\n", err)
		return 2
	}
	readAuth, err := web.CheckListen(*listen, token)
	if err != nil {
		fmt.Fprintf(stderr, "watchdog fleet: --http: %v\n", err)
		return 2
	}

	src := &fleetSource{days: fleet.NewDays(time.Local, 0)}
	met := metrics.New(src, nil)
	srv := web.New(src, web.Options{Token: token, ReadAuth: readAuth, Metrics: met.Handler(), Days: src})
	src.view = fleet.NewView(fleet.ViewOptions{
		Topics: fleet.Topics{Prefix: m.TopicPrefix},
		OnChange: func(mb fleet.Member) {
			src.days.Heard(mb, time.Now())
			srv.Publish(mb.State())
		},
		OnAlert: func(a fleet.Alert) {
			src.days.Alert(a, time.Now())
			met.Alert(a.Agent, a.Check, a.Level)
			srv.PublishAlert(web.Alert{Time: a.Time, Agent: a.Agent, Level: a.Level, Check: a.Check, Message: a.Message})
		},
	})
	met.Registry().MustRegister(src.view.Collector())
	ln, err := web.Listen(*listen, cfg.HTTP.MaxConnections)
	if err != nil {
		fmt.Fprintf(stderr, "watchdog fleet: --http: %v\n", err)
		return 1
	}
	sub, err := fleet.Subscribe(ctx, m, src.view, log)
	if err != nil {
		ln.Close()
		fmt.Fprintf(stderr, "watchdog fleet: %v\n", err)
		return 2
	}
	hs := web.NewHTTPServer(srv)
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = hs.Shutdown(sctx)
		_ = hs.Close()
	}()
	log.Info().Str("listen", ln.Addr().String()).Str("broker", m.Broker).Str("topics", fleet.Topics{Prefix: m.TopicPrefix}.All()).
		Msg("fleet view listening")
	if err := hs.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		log.Error().Err(err).Msg("http server stopped")
		return 1
	}
	<-sub.Done()
	return 0
}

// fleetConfig reads -c (when there is one) for its mqtt and http sections;
// a --mqtt URL replaces the broker and turns the section on.
func fleetConfig(load func() (*config.Config, string, error), broker string) (*config.Config, config.MQTT, error) {
	cfg, _, err := load()
	if err != nil {
		return nil, config.MQTT{}, err
	}
	m := cfg.MQTT
	if broker != "" {
		if err := config.CheckBroker(broker); err != nil {
			return nil, m, fmt.Errorf("--mqtt: %w", err)
		}
		m.Broker = broker
	}
	if !m.Enabled() {
		return nil, m, errors.New("no broker: give --mqtt tcp://host:1883, or mqtt.broker in the config")
	}
	if m.TopicPrefix == "" {
		m.TopicPrefix = config.DefaultTopicPrefix
	}
	if m.KeepAlive == 0 {
		m.KeepAlive = config.Duration(30 * time.Second)
	}
	m.ClientID = "" // the watchdogs' own ID would take over their session
	return cfg, m, nil
}

// fleetSource shows the view's members on the page and /metrics, and the
// days the view heard.
type fleetSource struct {
	view *fleet.View
	days *fleet.Days
}

// Day draws an agent's day as the view heard it, a slot per 15 minutes
// like a watchdog's own page: the last 24 hours, or a local day.
func (s *fleetSource) Day(agent, date string) (web.DayView, error) {
	now := time.Now()
	v, from, err := pageDay(agent, date, time.Local, now)
	if err != nil {
		return v, err
	}
	marks, prior, ok := s.days.Span(agent, from, from.Add(pageSlots*pageSlot))
	if !ok {
		return web.DayView{}, web.ErrUnknownAgent
	}
	v.Marks, v.Slots = marks, day.Strip(marks, prior, from, pageSlots, pageSlot, now)
	return v, nil
}

// Statuses makes the view a web.Source and a metrics.Source.
func (s *fleetSource) Statuses() []state.State { return s.view.Statuses() }

// Presence gives the page the view's verdict.
func (s *fleetSource) Presence(agent string) (web.Presence, bool) {
	m, ok := s.view.Member(agent)
	if !ok {
		return web.Presence{}, false
	}
	return web.Presence{Online: m.Online, LastSeen: m.LastSeen, Host: m.Host, Reason: m.Reason}, true
}
