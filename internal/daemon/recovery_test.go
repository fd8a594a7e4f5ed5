package daemon

import (
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/checks"
	"github.com/ai-heart/ai-heart/internal/config"
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
		in       Recovery
		res      checks.Result
		wantStep step
		want     Recovery
	}{
		{"healthy stays idle", Recovery{}, infoOnly, stepNone, Recovery{}},
		{"warning does not start recovery", Recovery{}, warn, stepNone, Recovery{}},
		{"introspection error does not start recovery", Recovery{}, introErr, stepNone, Recovery{}},
		{"recoverable error starts attempt 1", Recovery{}, bad, stepAttempt, Recovery{Active: true, Attempt: 1, Check: "inactivity", Reason: "inactivity says so"}},
		{"waiting: one cycle under the limit", Recovery{Active: true, Attempt: 1, WaitedCycles: 1}, warn, stepNone, Recovery{Active: true, Attempt: 1, WaitedCycles: 2}},
		{"wait limit reached: next attempt", Recovery{Active: true, Attempt: 1, WaitedCycles: 2}, bad, stepAttempt, Recovery{Active: true, Attempt: 2, Check: "inactivity", Reason: "inactivity says so"}},
		{"last attempt exhausted: gave up", Recovery{Active: true, Attempt: 2, WaitedCycles: 2}, bad, stepGaveUp, Recovery{GaveUp: true, Attempt: 2, WaitedCycles: 3}},
		{"infos count as healthy: recovered", Recovery{Active: true, Attempt: 1}, infoOnly, stepRecovered, Recovery{}},
		{"gave up stays given up while unhealthy", Recovery{GaveUp: true, Attempt: 2}, bad, stepNone, Recovery{GaveUp: true, Attempt: 2}},
		{"gave up ends when the agent is healthy again", Recovery{GaveUp: true, Attempt: 2}, infoOnly, stepRecovered, Recovery{}},
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
