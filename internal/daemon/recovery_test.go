package daemon

import (
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/checks"
	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/state"
)

func result(levels map[string]checks.Level) checks.Result {
	var r checks.Result
	for _, name := range []string{"inactivity", "introspection", "feedback", "stale_id"} {
		r.Findings = append(r.Findings, checks.Finding{Check: name, Level: levels[name], Message: name + " says so"})
	}
	return r
}

func TestRecoveryNext(t *testing.T) {
	cfg := config.Recovery{MaxAttempts: 2, MaxWaitCycles: 3}
	now := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	bad := result(map[string]checks.Level{"inactivity": checks.Error})
	introErr := result(map[string]checks.Level{"introspection": checks.Error})
	infoOnly := result(map[string]checks.Level{"feedback": checks.Info})
	warn := result(map[string]checks.Level{"inactivity": checks.Warning})
	tests := []struct {
		name     string
		in       state.Recovery
		res      checks.Result
		wantStep step
		want     state.Recovery
	}{
		{"healthy stays idle", state.Recovery{}, infoOnly, stepNone, state.Recovery{}},
		{"warning does not start recovery", state.Recovery{}, warn, stepNone, state.Recovery{}},
		{"introspection error does not start recovery", state.Recovery{}, introErr, stepNone, state.Recovery{}},
		{"recoverable error starts attempt 1", state.Recovery{}, bad, stepAttempt, state.Recovery{Active: true, Attempt: 1, Check: "inactivity", Reason: "inactivity says so"}},
		{"waiting: one cycle under the limit", state.Recovery{Active: true, Attempt: 1, WaitedCycles: 1}, warn, stepNone, state.Recovery{Active: true, Attempt: 1, WaitedCycles: 2}},
		{"wait limit reached: next attempt", state.Recovery{Active: true, Attempt: 1, WaitedCycles: 2}, bad, stepAttempt, state.Recovery{Active: true, Attempt: 2, Check: "inactivity", Reason: "inactivity says so"}},
		{"last attempt exhausted: gave up", state.Recovery{Active: true, Attempt: 2, WaitedCycles: 2}, bad, stepGaveUp, state.Recovery{GaveUp: true, Attempt: 2, WaitedCycles: 3}},
		{"infos count as healthy: recovered", state.Recovery{Active: true, Attempt: 1}, infoOnly, stepRecovered, state.Recovery{}},
		{"gave up stays given up while unhealthy", state.Recovery{GaveUp: true, Attempt: 2}, bad, stepNone, state.Recovery{GaveUp: true, Attempt: 2}},
		{"gave up ends when the agent is healthy again", state.Recovery{GaveUp: true, Attempt: 2}, infoOnly, stepRecovered, state.Recovery{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, s := nextRecovery(tc.in, tc.res, cfg, now)
			got.StartedAt = nil
			if s != tc.wantStep {
				t.Fatalf("next(%+v) step = %v, want %v", tc.in, s, tc.wantStep)
			}
			if got != tc.want {
				t.Fatalf("next(%+v) = %+v, want %+v", tc.in, got, tc.want)
			}
		})
	}
}
