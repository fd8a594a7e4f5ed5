package metrics

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/ai-heart/ai-heart/internal/fleet"
)

// Publisher is what the MQTT metrics read: a *fleet.Publisher.
type Publisher interface {
	Connected() bool
	Counts() fleet.Counts
}

// AddPublisher shows the MQTT publisher's connection and counts, read at
// scrape time.
func (m *Metrics) AddPublisher(p Publisher) {
	m.reg.MustRegister(publisherCollector{p})
}

var (
	descMQTTUp      = prometheus.NewDesc("watchdog_mqtt_connected", "1 while the MQTT broker connection is up.", nil, nil)
	descMQTTSent    = prometheus.NewDesc("watchdog_mqtt_published_total", "Messages published, by kind (state, alert).", []string{"kind"}, nil)
	descMQTTDropped = prometheus.NewDesc("watchdog_mqtt_dropped_total",
		"Messages not published, by kind: states replaced by a newer one before the broker took them, alerts while it was away.", []string{"kind"}, nil)
	descMQTTConnects = prometheus.NewDesc("watchdog_mqtt_connects_total", "Connections made to the broker (the first and each reconnect).", nil, nil)
)

type publisherCollector struct{ p Publisher }

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
