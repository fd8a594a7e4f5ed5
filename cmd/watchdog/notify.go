package main

import (
	"fmt"
	"time"

	"github.com/rs/zerolog"

	"github.com/ai-heart/ai-heart/internal/alert"
	"github.com/ai-heart/ai-heart/internal/checks"
	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/delivery"
	"github.com/ai-heart/ai-heart/internal/notify"
)

// newNotifier builds the alerts.notify targets (nil when there are none)
// and subscribes them to the alert sink. URLs are resolved here, from
// url_file or ${ENV}, and only their redacted form is ever printed.
func newNotifier(cfg *config.Config, sink *alert.Sink, log zerolog.Logger, onResult func(agent string, err error)) (*notify.Notifier, error) {
	if len(cfg.Alerts.Notify) == 0 {
		return nil, nil
	}
	var targets []notify.Target
	for i, nc := range cfg.Alerts.Notify {
		key := fmt.Sprintf("alerts.notify[%d]", i)
		u, err := notify.ResolveURL(key, nc.URL, nc.URLFile)
		if err != nil {
			return nil, err
		}
		// The secret stays the watchdog's: no agent run inherits it.
		delivery.Withhold(notify.EnvNames(nc.URL)...)
		lvl, err := checks.ParseLevel(nc.MinLevel)
		if err != nil {
			return nil, fmt.Errorf("%s.min_level: %w", key, err)
		}
		targets = append(targets, notify.Target{URL: u, MinLevel: lvl, MinInterval: nc.MinInterval.D()})
	}
	n, err := notify.New(targets, notify.Options{Log: log, OnResult: onResult})
	if err != nil {
		return nil, err
	}
	sink.Subscribe(func(a alert.Alert) {
		n.Add(a.Agent, notify.Change{Time: a.Time, Level: a.Level, Check: a.Check, Message: a.Message})
	})
	for _, name := range n.Names() {
		log.Info().Str("notify", name).Msg("notifications on state change")
	}
	return n, nil
}

// notifyShutdownWait is how long a stopping watchdog gives queued
// notifications (an alert raised just before the stop, say).
const notifyShutdownWait = 3 * time.Second
