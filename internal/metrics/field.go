package metrics

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/ai-heart/ai-heart/internal/day"
)

// FieldSource gives an agent's field numbers (today and the last 7 days,
// from its day files); a source without days gives none.
type FieldSource interface {
	Fields() map[string]day.Field
}

func fieldDesc(name, help string) *prometheus.Desc {
	return prometheus.NewDesc("watchdog_field_"+name, help+" (span: today from local midnight, 7d the days kept; docs/measured.md).", []string{"agent", "span"}, nil)
}

var fieldMetrics = []struct {
	d   *prometheus.Desc
	get func(day.Numbers) float64
}{
	{fieldDesc("hours", "Hours the agent was supervised: neither paused, outside active hours nor without a watchdog"), func(n day.Numbers) float64 { return n.Hours }},
	{fieldDesc("unrecovered_stalls", "Recovery's give-ups"), func(n day.Numbers) float64 { return float64(n.Stalls) }},
	{fieldDesc("unrecovered_stalls_per_24h", "Recovery's give-ups per 24 hours supervised"), func(n day.Numbers) float64 { return n.StallsPer24h }},
	{fieldDesc("scheduled_wakeups", "The schedule's wakeups that came due"), func(n day.Numbers) float64 { return float64(n.Scheduled) }},
	{fieldDesc("scheduled_on_time", "The schedule's wakeups delivered when due"), func(n day.Numbers) float64 { return float64(n.OnTime) }},
	{fieldDesc("rate_limit_resets", "Rate-limit resets the watchdog saw"), func(n day.Numbers) float64 { return float64(n.Resets) }},
	{fieldDesc("resumed_within_10m", "Rate-limit resets after which work began again within 10 minutes"), func(n day.Numbers) float64 { return float64(n.Resumed) }},
	{fieldDesc("interventions", "A person's interventions: pauses, resumes of a give-up, urgent feedback, questions answered"), func(n day.Numbers) float64 { return float64(n.Interventions) }},
	{fieldDesc("hours_alone", "Hours supervised per stretch between a person's interventions"), func(n day.Numbers) float64 { return n.HoursAlone }},
	{fieldDesc("answered_wakeups", "Answered wakeups, ghost replies aside"), func(n day.Numbers) float64 { return float64(n.Answered) }},
	{fieldDesc("nothing_changed", "Answered wakeups whose work changed nothing"), func(n day.Numbers) float64 { return float64(n.NothingChanged) }},
}

// fieldCollector reads the field numbers at scrape time.
type fieldCollector struct{ src FieldSource }

func (c *fieldCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, m := range fieldMetrics {
		ch <- m.d
	}
}

func (c *fieldCollector) Collect(ch chan<- prometheus.Metric) {
	for agent, f := range c.src.Fields() {
		for _, m := range fieldMetrics {
			ch <- prometheus.MustNewConstMetric(m.d, prometheus.GaugeValue, m.get(f.Today), agent, "today")
			ch <- prometheus.MustNewConstMetric(m.d, prometheus.GaugeValue, m.get(f.Week), agent, "7d")
		}
	}
}
