// Package metrics exposes agent states, and the MQTT publisher's counts, as
// Prometheus metrics through client_golang. Gauges and the totals the daemon
// and the publisher already count are read at scrape time (one source of
// truth, nothing to keep in step); the pulse duration histogram and alert
// counts are observed as they happen.
package metrics

import (
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/ai-heart/ai-heart/internal/budget"
	"github.com/ai-heart/ai-heart/internal/cost"
	"github.com/ai-heart/ai-heart/internal/state"
)

// Source lists the agent states to expose (web.Source has the same shape).
type Source interface {
	Statuses() []state.State
}

// Metrics owns a registry with the watchdog's collectors.
type Metrics struct {
	reg           *prometheus.Registry
	pulseDuration *prometheus.HistogramVec
	alerts        *prometheus.CounterVec
	notifyFailed  *prometheus.CounterVec
	notifySent    *prometheus.CounterVec
	asks          asksMetrics
}

// New builds the registry over src; now is the clock for ages (nil: time.Now).
func New(src Source, now func() time.Time) *Metrics {
	if now == nil {
		now = time.Now
	}
	m := &Metrics{
		reg: prometheus.NewRegistry(),
		pulseDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "watchdog_pulse_duration_seconds", Help: "How long each pulse took (mint, scan, checks, state).",
			Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5},
		}, []string{"agent"}),
		alerts: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "watchdog_alerts_total", Help: "Alerts raised, by check and the level entered.",
		}, []string{"agent", "check", "level"}),
		notifySent: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "watchdog_notifications_sent_total", Help: "Notification messages delivered.",
		}, []string{"agent"}),
		notifyFailed: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "watchdog_notifications_failed_total", Help: "Notification messages given up on after their retries.",
		}, []string{"agent"}),
		asks: newAsksMetrics(),
	}
	m.reg.MustRegister(m.pulseDuration, m.alerts, m.notifySent, m.notifyFailed, m.asks.total, m.asks.wait,
		&stateCollector{src: src, now: now},
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	if f, ok := src.(FieldSource); ok {
		m.reg.MustRegister(&fieldCollector{src: f})
	}
	return m
}

// Handler serves the metrics in the Prometheus text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{Registry: m.reg})
}

// Registry is the registry, for tests and extra collectors.
func (m *Metrics) Registry() *prometheus.Registry { return m.reg }

// Pulse records one pulse's duration.
func (m *Metrics) Pulse(agent string, took time.Duration) {
	m.pulseDuration.WithLabelValues(agent).Observe(took.Seconds())
}

// Alert counts one alert.
func (m *Metrics) Alert(agent, check, level string) {
	m.alerts.WithLabelValues(agent, check, level).Inc()
}

// Notified counts one notification message, sent or given up on.
func (m *Metrics) Notified(agent string, err error) {
	if err != nil {
		m.notifyFailed.WithLabelValues(agent).Inc()
		return
	}
	m.notifySent.WithLabelValues(agent).Inc()
}

var (
	descPulses = prometheus.NewDesc("watchdog_pulses_total", "Pulses since the watchdog started.", []string{"agent"}, nil)
	descLevel  = prometheus.NewDesc("watchdog_check_level", "Each check's level: 0 ok, 1 info, 2 warning, 3 error.", []string{"agent", "check"}, nil)
	descWakeup = prometheus.NewDesc("watchdog_wakeups_total",
		"Wakeups by the chamber that asked (schedule, idle, recovery, feedback) and outcome: delivered, ghost, failed, taken_over, tool_capped, token_capped, tool_refused, dropped_cap, dropped_budget, skipped_breaker, skipped_gave_up, coalesced, moot, paused, outside_active_hours.",
		[]string{"agent", "source", "outcome"}, nil)
	descBreaker   = prometheus.NewDesc("watchdog_circuit_breaker_state", "1 for the breaker's current state (closed, open, half_open).", []string{"agent", "state"}, nil)
	descCapUsed   = prometheus.NewDesc("watchdog_daily_cap_used", "Wakeups let through today.", []string{"agent"}, nil)
	descCapLimit  = prometheus.NewDesc("watchdog_daily_cap_limit", "The daily cap on wakeups (0 = unlimited).", []string{"agent"}, nil)
	descProofAge  = prometheus.NewDesc("watchdog_last_proof_age_seconds", "Seconds since the newest proof of life (log or checkpoint).", []string{"agent"}, nil)
	descIntroAge  = prometheus.NewDesc("watchdog_last_introspection_age_seconds", "Seconds since the last introspection log.", []string{"agent"}, nil)
	descDeepWork  = prometheus.NewDesc("watchdog_deep_work_active", "Active deep work declarations by mode.", []string{"agent", "mode"}, nil)
	descPaused    = prometheus.NewDesc("watchdog_paused", "1 while the agent is paused.", []string{"agent"}, nil)
	descLastPulse = prometheus.NewDesc("watchdog_last_pulse_timestamp_seconds", "When the agent last pulsed (Unix time).", []string{"agent"}, nil)
	descChannel   = prometheus.NewDesc("watchdog_channel_last_timestamp_seconds",
		"When each channel of the agent's client last spoke (Unix time): hooks, telemetry, exec (a run's output), transcript. Absent for a channel that has not.",
		[]string{"agent", "channel"}, nil)
	descTokens = prometheus.NewDesc("watchdog_tokens_total",
		"Tokens the agent's runs reported, by wakeup source and kind (input, output, cache_read, cache_write); kept across restarts in the cost ledger (cost.json in the state folder). Runs that reported no usage are not in it.",
		[]string{"agent", "source", "kind"}, nil)
	descWriteFailures = prometheus.NewDesc("watchdog_write_failures_total",
		"The watchdog's own writes that failed (heartbeat ID, state, ledger, day strip, transcripts, alerts file), since it started: a full disk, say.",
		[]string{"agent"}, nil)
	descTelemetryApart = prometheus.NewDesc("watchdog_telemetry_unbooked_total",
		"The clients' telemetry counted apart and never charged, since the watchdog started, by reason: unmatched (a usage report that belonged to no run or turn of the agent's), refused (an implausible count), unkeyed (a post without the agent's key).",
		[]string{"agent", "reason"}, nil)
	descWork = prometheus.NewDesc("watchdog_wakeups_work_total",
		"Answered wakeups (ghost replies aside) by whether they changed the agent's work in the folders progress watches (changed: true or false), since the watchdog started.",
		[]string{"agent", "changed"}, nil)
	descBudgetSpent = prometheus.NewDesc("watchdog_budget_spent", "1 while the daily token and money budget is spent: no wakeups until local midnight.", []string{"agent"}, nil)
	descCostUSD     = prometheus.NewDesc("watchdog_cost_usd_total",
		"What the agent's runs cost in USD, by wakeup source (the client's own figure, else the config's prices); runs with no known price are not in it. Kept across restarts.",
		[]string{"agent", "source"}, nil)
)

// stateCollector turns the agents' states into metrics at scrape time.
type stateCollector struct {
	src Source
	now func() time.Time
}

func (c *stateCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{descPulses, descLevel, descWakeup, descBreaker, descCapUsed, descCapLimit,
		descProofAge, descIntroAge, descDeepWork, descPaused, descLastPulse, descTokens, descCostUSD, descBudgetSpent, descWriteFailures, descChannel, descTelemetryApart, descWork, descAsksPending, descWaitedToday} {
		ch <- d
	}
}

var levels = map[string]float64{"ok": 0, "info": 1, "warning": 2, "error": 3}

func (c *stateCollector) Collect(ch chan<- prometheus.Metric) {
	now := c.now()
	gauge := func(d *prometheus.Desc, v float64, labels ...string) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.GaugeValue, v, labels...)
	}
	counter := func(d *prometheus.Desc, v int64, labels ...string) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.CounterValue, float64(v), labels...)
	}
	for _, s := range c.src.Statuses() {
		if s.PulseAt.IsZero() {
			continue // not pulsed yet: nothing true to say
		}
		a := s.Agent
		counter(descPulses, s.Counters.Pulses, a)
		counter(descWriteFailures, s.Chambers.Pulse.WriteFailures, a)
		counter(descWork, s.Counters.WorkChanged, a, "true")
		counter(descWork, s.Counters.WorkUnchanged, a, "false")
		for reason, v := range map[string]int64{"unmatched": s.Counters.TelemetryUnmatched, "refused": s.Counters.TelemetryRefused, "unkeyed": s.Counters.TelemetryUnkeyed} {
			counter(descTelemetryApart, v, a, reason)
		}
		gauge(descLastPulse, float64(s.PulseAt.UnixMilli())/1000, a)
		if s.Asks != nil {
			c.collectAsks(ch, a, len(s.Asks.Pending), s.Asks.WaitedToday)
		}
		for ch, at := range s.Channels {
			gauge(descChannel, float64(at.UnixMilli())/1000, a, ch)
		}
		for check, cs := range s.Checks {
			gauge(descLevel, levels[cs.Level], a, check)
		}
		for source, outcomes := range s.Counters.BySource {
			for outcome, v := range outcomes {
				counter(descWakeup, v, a, source, outcome)
			}
		}
		for _, st := range []string{budget.Closed, budget.Open, budget.HalfOpen} {
			v := 0.0
			if s.Breaker.State == st || (s.Breaker.State == "" && st == budget.Closed) {
				v = 1
			}
			gauge(descBreaker, v, a, st)
		}
		gauge(descCapUsed, float64(s.DailyCap.Used), a)
		gauge(descCapLimit, float64(s.DailyCap.Limit), a)
		if p := s.LastProof; p != nil {
			gauge(descProofAge, now.Sub(p.ModTime).Seconds(), a)
		}
		if p := s.LastIntro; p != nil {
			gauge(descIntroAge, now.Sub(p.ModTime).Seconds(), a)
		}
		modes := map[string]float64{"flexible": 0, "strict": 0}
		for _, d := range s.DeepWork {
			modes[string(d.Mode)]++
		}
		for mode, n := range modes {
			gauge(descDeepWork, n, a, mode)
		}
		paused := 0.0
		if s.Pause != nil {
			paused = 1
		}
		gauge(descPaused, paused, a)
		if s.Cost != nil {
			for source, c := range s.Cost.Totals {
				for _, kind := range cost.Kinds {
					counter(descTokens, c.Tokens.Kind(kind), a, source, kind)
				}
				ch <- prometheus.MustNewConstMetric(descCostUSD, prometheus.CounterValue, c.USD, a, source)
			}
			if b := s.Cost.Budget; b != nil {
				spent := 0.0
				if b.Spent {
					spent = 1
				}
				gauge(descBudgetSpent, spent, a)
			}
		}
	}
}
