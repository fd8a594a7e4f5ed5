package main

import (
	"context"

	"github.com/prometheus/client_golang/prometheus"
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

// publisherCollector shows the publisher's counts on /metrics.
type publisherCollector struct{ p *fleet.Publisher }

var (
	descMQTTUp      = prometheus.NewDesc("watchdog_mqtt_connected", "1 while the MQTT broker connection is up.", nil, nil)
	descMQTTSent    = prometheus.NewDesc("watchdog_mqtt_published_total", "Messages published, by kind (state, alert).", []string{"kind"}, nil)
	descMQTTDropped = prometheus.NewDesc("watchdog_mqtt_dropped_total",
		"Messages not published, by kind: states replaced by a newer one before the broker took them, alerts while it was away.", []string{"kind"}, nil)
	descMQTTConnects = prometheus.NewDesc("watchdog_mqtt_connects_total", "Connections made to the broker (the first and each reconnect).", nil, nil)
)

func (c publisherCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- descMQTTUp
	ch <- descMQTTSent
	ch <- descMQTTDropped
	ch <- descMQTTConnects
}

func (c publisherCollector) Collect(ch chan<- prometheus.Metric) {
	n := c.p.Counts()
	up := 0.0
	if c.p.Connected() {
		up = 1
	}
	ch <- prometheus.MustNewConstMetric(descMQTTUp, prometheus.GaugeValue, up)
	ch <- prometheus.MustNewConstMetric(descMQTTSent, prometheus.CounterValue, float64(n.States), "state")
	ch <- prometheus.MustNewConstMetric(descMQTTSent, prometheus.CounterValue, float64(n.Alerts), "alert")
	ch <- prometheus.MustNewConstMetric(descMQTTDropped, prometheus.CounterValue, float64(n.DroppedStates), "state")
	ch <- prometheus.MustNewConstMetric(descMQTTDropped, prometheus.CounterValue, float64(n.DroppedAlerts), "alert")
	ch <- prometheus.MustNewConstMetric(descMQTTConnects, prometheus.CounterValue, float64(n.Connects))
}
