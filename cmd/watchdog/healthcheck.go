package main

import (
	"context"
	"time"

	"github.com/rs/zerolog"

	"github.com/ai-heart/ai-heart/internal/checks"
	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/daemon"
	"github.com/ai-heart/ai-heart/internal/deadman"
	"github.com/ai-heart/ai-heart/internal/delivery"
	"github.com/ai-heart/ai-heart/internal/notify"
)

// withHealthcheck wires the healthcheck section, the watchdog's own
// dead-man's switch, into opts: a ping on each healthy pulse (the one
// systemd's watchdog hears: every agent pulsed), at most once an interval,
// sent off the pulse's path until ctx ends. The URL is resolved here and
// never printed.
func withHealthcheck(ctx context.Context, cfg *config.Config, opts *daemon.Options, log zerolog.Logger) error {
	hc := cfg.Healthcheck
	if !hc.On() {
		return nil
	}
	u, err := notify.ResolveURL("healthcheck", hc.URL, hc.URLFile)
	if err != nil {
		return err
	}
	delivery.Withhold(notify.EnvNames(hc.URL)...) // no agent run inherits the secret
	p := deadman.New(deadman.Options{URL: u, Method: hc.Method, Every: hc.Interval.D(), Fail: hc.Fail, Timeout: hc.Timeout.D(), Log: log})
	go p.Run(ctx)
	opts.Subscribers = append(opts.Subscribers, func(e daemon.PulseEvent) { p.Observe(e.Agent, e.Result.Worst() >= checks.Error) })
	opts.Notify = beatNotifier{Notifier: opts.Notify, beat: func() { p.Beat(time.Now()) }}
	log.Info().Str("healthcheck", notify.Redact(u)).Str("every", hc.Interval.D().String()).Msg("dead-man's switch: pings on healthy pulses")
	return nil
}

// beatNotifier is the service manager's notifier that also beats the
// dead-man's switch when systemd's watchdog is told all is well.
type beatNotifier struct {
	daemon.Notifier
	beat func()
}

func (b beatNotifier) Watchdog() error {
	b.beat()
	if b.Notifier == nil {
		return nil
	}
	return b.Notifier.Watchdog()
}
