package fleet

import "github.com/prometheus/client_golang/prometheus"

var descOnline = prometheus.NewDesc("watchdog_fleet_agent_online", "1 while the fleet view has the agent online.", []string{"agent", "host"}, nil)

// Collector exposes each member's presence on /metrics, read at scrape time.
func (v *View) Collector() prometheus.Collector { return presenceCollector{v} }

type presenceCollector struct{ v *View }

func (c presenceCollector) Describe(ch chan<- *prometheus.Desc) { ch <- descOnline }

func (c presenceCollector) Collect(ch chan<- prometheus.Metric) {
	for _, m := range c.v.Members() {
		v := 0.0
		if m.Online {
			v = 1
		}
		ch <- prometheus.MustNewConstMetric(descOnline, prometheus.GaugeValue, v, m.Agent, m.Host)
	}
}
