package daemon

import (
	"strings"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/checks"
	"github.com/ai-heart/ai-heart/internal/recovery"
	"github.com/ai-heart/ai-heart/internal/scan"
	"github.com/ai-heart/ai-heart/internal/state"
	"github.com/ai-heart/ai-heart/internal/wakeup"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

func result(levels map[string]checks.Level) checks.Result {
	var r checks.Result
	for _, name := range []string{"inactivity", "introspection", "feedback", "stale_id"} {
		r.Findings = append(r.Findings, checks.Finding{Check: name, Level: levels[name], Message: name + " says so"})
	}
	return r
}

// Once the agent has written the recovery log this
// attempt asked for, the pulses after it stop telling it to write one (the
// other checks' notices say what is left); a new attempt asks again.
func TestRecoveryNoticeEndsWithTheRecoveryLog(t *testing.T) {
	cfg := testConfig(t).AgentConfigs()[0]
	attempt := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	rec := state.Recovery{Active: true, Attempt: 1, Check: "inactivity", Reason: "inactivity says so", StartedAt: &attempt, AttemptAt: &attempt}
	logAt := func(typ workspace.ActivityType, at time.Time) workspace.Proof {
		return workspace.Proof{Path: "artifacts/x/histories/" + string(workspace.NewID(at)) + ".md", ID: workspace.NewID(at), ModTime: at, Type: typ}
	}
	hasRecovery := func(a *agent) bool {
		for _, n := range a.notices() {
			if strings.HasPrefix(n, "[error] recovery: ") {
				return true
			}
		}
		return false
	}
	tests := []struct {
		name string
		rec  state.Recovery
		logs []workspace.Proof // newest first, as the scan keeps them
		want bool
	}{
		{"no log yet", rec, nil, true},
		{"a recovery log from before this attempt", rec, []workspace.Proof{logAt(workspace.Recovery, attempt.Add(-time.Minute))}, true},
		{"another kind of log since", rec, []workspace.Proof{logAt(workspace.Creation, attempt.Add(time.Second))}, true},
		{"the recovery log, then an introspection", rec, []workspace.Proof{logAt(workspace.Introspection, attempt.Add(2*time.Second)), logAt(workspace.Recovery, attempt.Add(time.Second))}, false},
		{"a state from before attempt_at: counted from started_at", state.Recovery{Active: true, Attempt: 1, Check: "inactivity", StartedAt: &attempt}, []workspace.Proof{logAt(workspace.Recovery, attempt.Add(time.Second))}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a := &agent{agentWiring: agentWiring{cfg: cfg, gate: newGate(nil, nil, nil, wakeup.State{Rec: tc.rec})}, pulseMemory: pulseMemory{snap: scan.Snapshot{RecentLogs: tc.logs}}}
			if got := hasRecovery(a); got != tc.want {
				t.Errorf("carries the recovery notice = %v, want %v: %q", got, tc.want, a.notices())
			}
		})
	}
	// The next attempt is a new request, whatever was written before it.
	next, s := recovery.Step(state.Recovery{Active: true, Attempt: 1, WaitedCycles: 2, StartedAt: &attempt, AttemptAt: &attempt},
		recovery.Input{Now: attempt.Add(3 * time.Minute), Findings: result(map[string]checks.Level{"inactivity": checks.Error}).Findings}, recovery.Config{MaxAttempts: 3, MaxWaitCycles: 3})
	if s != recovery.Attempt || next.AttemptAt == nil || !next.AttemptAt.Equal(attempt.Add(3*time.Minute)) {
		t.Fatalf("attempt 2: step %v, attempt_at %v", s, next.AttemptAt)
	}
	a := &agent{agentWiring: agentWiring{cfg: cfg, gate: newGate(nil, nil, nil, wakeup.State{Rec: next})}, pulseMemory: pulseMemory{snap: scan.Snapshot{RecentLogs: []workspace.Proof{logAt(workspace.Recovery, attempt.Add(time.Second))}}}}
	if !hasRecovery(a) {
		t.Errorf("attempt 2 after attempt 1's recovery log does not ask again: %q", a.notices())
	}
}
