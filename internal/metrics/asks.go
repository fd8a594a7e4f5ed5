package metrics

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// What waiting for a person costs: each question the agent's client put to
// a person (asks) and how long it waited, apart from the agent's own work.

var (
	descAsksPending = prometheus.NewDesc("watchdog_asks_pending", "Questions of the agent's client offered to a person now.", []string{"agent"}, nil)
	descWaitedToday = prometheus.NewDesc("watchdog_waiting_for_you_today_seconds",
		"How long today's closed questions waited for a person (the local day).", []string{"agent"}, nil)
)

// asksMetrics are the observed half: counts by outcome and each
// question's wait.
type asksMetrics struct {
	total *prometheus.CounterVec
	wait  *prometheus.HistogramVec
}

func newAsksMetrics() asksMetrics {
	return asksMetrics{
		total: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "watchdog_asks_total",
			Help: "Questions of the agent's client offered to a person afar, and what came of them: offered, allow, deny, withdrawn (no answer within asks.hold, or answered at the terminal), gone (the hook had left), refused (an answer refused).",
		}, []string{"agent", "outcome"}),
		wait: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "watchdog_waiting_for_you_seconds",
			Help:    "How long each question waited for a person, until answered or withdrawn.",
			Buckets: []float64{10, 30, 60, 120, 300, 600, 1800, 3600, 3 * 3600, 12 * 3600},
		}, []string{"agent"}),
	}
}

// Asked counts a question offered (outcome "offered"), or what came of one
// with how long it waited.
func (m *Metrics) Asked(agent, outcome string, waited time.Duration) {
	m.asks.total.WithLabelValues(agent, outcome).Inc()
	switch outcome {
	case "offered", "refused", "told":
		return
	}
	m.asks.wait.WithLabelValues(agent).Observe(waited.Seconds())
}

// collectAsks reads the pending questions and today's waiting from the
// state.
func (c *stateCollector) collectAsks(ch chan<- prometheus.Metric, agent string, pending int, waitedToday float64) {
	ch <- prometheus.MustNewConstMetric(descAsksPending, prometheus.GaugeValue, float64(pending), agent)
	ch <- prometheus.MustNewConstMetric(descWaitedToday, prometheus.GaugeValue, waitedToday, agent)
}
