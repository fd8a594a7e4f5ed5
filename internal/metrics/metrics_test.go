package metrics

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http/httptest"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/budget"
	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/cost"
	"github.com/ai-heart/ai-heart/internal/fleet"
	"github.com/ai-heart/ai-heart/internal/pause"
	"github.com/ai-heart/ai-heart/internal/state"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

type states []state.State

func (s states) Statuses() []state.State { return s }

func agentStates(n int, now time.Time) states {
	var out states
	for i := range n {
		s := state.State{
			Agent: fmt.Sprintf("agent-%02d", i), PulseAt: now, PulseInterval: config.Duration(time.Minute),
			Checks:    map[string]state.CheckState{"inactivity": {Level: "ok"}, "introspection": {Level: "warning"}, "future_id": {Level: "ok"}},
			LastProof: &workspace.Proof{ModTime: now.Add(-90 * time.Second)}, LastIntro: &workspace.Proof{ModTime: now.Add(-40 * time.Minute)},
			DeepWork: []state.DeepWork{{Mode: workspace.Strict}}, DailyCap: budget.CapState{Used: 4, Limit: 100},
			Breaker: budget.BreakerState{State: budget.Open}, Counters: state.Counters{Pulses: 42},
		}
		for range 3 {
			s.Counters.Wakeup("schedule", state.OutcomeDelivered)
		}
		s.Counters.Wakeup("idle", state.OutcomePaused)
		if i == 0 {
			s.Pause = &pause.Pause{Since: now}
			s.Channels = state.Channels{"hooks": now.Add(-30 * time.Second), "telemetry": now.Add(-90 * time.Second)}
		}
		s.Cost = &cost.Summary{Totals: map[string]cost.Cell{
			"schedule": {Runs: 50, Tokens: cost.Tokens{Input: 2000, Output: 340, CacheRead: 7}, USD: 0.004},
		}, Budget: &cost.BudgetState{Spent: i == 1}}
		out = append(out, s)
	}
	return out
}

func scrape(t testing.TB, m *Metrics) []byte {
	t.Helper()
	srv := httptest.NewServer(m.Handler())
	defer srv.Close()
	resp, err := srv.Client().Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestMetricsCarryTheAgentLabel(t *testing.T) {
	now := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	m := New(agentStates(2, now), func() time.Time { return now })
	m.Pulse("agent-00", 3*time.Millisecond)
	m.Alert("agent-00", "inactivity", "warning")
	m.Notified("agent-00", errors.New("x"))
	body := string(scrape(t, m))
	for _, want := range []string{
		`watchdog_pulses_total{agent="agent-01"} 42`,
		fmt.Sprintf(`watchdog_channel_last_timestamp_seconds{agent="agent-00",channel="hooks"} %g`, float64(now.Unix()-30)),
		fmt.Sprintf(`watchdog_channel_last_timestamp_seconds{agent="agent-00",channel="telemetry"} %g`, float64(now.Unix()-90)),
		`watchdog_check_level{agent="agent-00",check="introspection"} 2`,
		`watchdog_wakeups_total{agent="agent-00",outcome="paused",source="idle"} 1`,
		`watchdog_wakeups_total{agent="agent-00",outcome="delivered",source="schedule"} 3`,
		`watchdog_circuit_breaker_state{agent="agent-00",state="open"} 1`,
		`watchdog_daily_cap_limit{agent="agent-00"} 100`,
		`watchdog_last_proof_age_seconds{agent="agent-00"} 90`,
		`watchdog_last_introspection_age_seconds{agent="agent-00"} 2400`,
		`watchdog_deep_work_active{agent="agent-00",mode="strict"} 1`,
		`watchdog_paused{agent="agent-00"} 1`,
		`watchdog_paused{agent="agent-01"} 0`,
		`watchdog_alerts_total{agent="agent-00",check="inactivity",level="warning"} 1`,
		`watchdog_notifications_failed_total{agent="agent-00"} 1`,
		`watchdog_pulse_duration_seconds_count{agent="agent-00"} 1`,
		`watchdog_tokens_total{agent="agent-00",kind="input",source="schedule"} 2000`,
		`watchdog_tokens_total{agent="agent-00",kind="output",source="schedule"} 340`,
		`watchdog_tokens_total{agent="agent-00",kind="cache_read",source="schedule"} 7`,
		`watchdog_tokens_total{agent="agent-00",kind="cache_write",source="schedule"} 0`,
		`watchdog_cost_usd_total{agent="agent-01",source="schedule"} 0.004`,
		`watchdog_budget_spent{agent="agent-00"} 0`,
		`watchdog_budget_spent{agent="agent-01"} 1`,
		`go_goroutines`, `process_resident_memory_bytes`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("missing %s", want)
		}
	}
}

// promtool (Debian's prometheus package) lints the exposition.
func TestPromtoolFindsNothing(t *testing.T) {
	promtool, err := exec.LookPath("promtool")
	if err != nil {
		t.Skip("promtool not installed (Debian package prometheus)")
	}
	now := time.Now()
	m := New(agentStates(3, now), nil)
	m.Pulse("agent-00", time.Millisecond)
	m.Alert("agent-00", "inactivity", "error")
	m.Notified("agent-00", nil)
	m.AddPublisher(&fakePublisher{connected: func() bool { return true }, counts: func() fleet.Counts { return fleet.Counts{States: 1} }})
	cmd := exec.Command(promtool, "check", "metrics")
	cmd.Stdin = bytes.NewReader(scrape(t, m))
	out, err := cmd.CombinedOutput()
	if err != nil || len(bytes.TrimSpace(out)) > 0 {
		t.Fatalf("promtool check metrics: %v\n%s", err, out)
	}
}
