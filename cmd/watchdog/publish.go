package main

import (
	"context"

	"github.com/rs/zerolog"

	"github.com/ai-heart/ai-heart/internal/alert"
	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/fleet"
)

// newPublisher puts the pulse on MQTT when mqtt.broker is set: each
// pulse's state and every alert go to the publisher, which never makes the
// pulse wait. With no broker it returns nil. A change of the mqtt section
// takes a restart.
func newPublisher(ctx context.Context, cfg *config.Config, sink *alert.Sink, log zerolog.Logger) (*fleet.Publisher, error) {
	if !cfg.MQTT.Enabled() {
		return nil, nil
	}
	p, err := fleet.NewPublisher(ctx, cfg.MQTT, log)
	if err != nil {
		return nil, err
	}
	sink.Subscribe(p.Alert)
	return p, nil
}
