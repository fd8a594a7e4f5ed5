package wakeup

import (
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/recovery"
)

// TestRecoveryInTheMachine: recovery's decisions and the wakeups they are,
// decided in one step.
func TestRecoveryInTheMachine(t *testing.T) {
	rcfg := recovery.Config{MaxAttempts: 2, MaxWaitCycles: 1}
	cfg := execCfg
	cfg.Recovery = rcfg
	fresh := New(cfg, t0)
	attempting := func(n int, p Phase, passed bool) State { // attempt 1's flight n
		s := fresh
		s.Rec = recovery.State{Active: true, Attempt: 1, Check: "inactivity", AttemptAt: ptr(at(0))}
		s.LastN, s.Cur = n, &Flight{N: n, Source: Recovery, At: at(0), Phase: p, Attempt: 1, Passed: passed}
		return s
	}
	scheduled := flying(cfg, Schedule, Running)
	held := flying(Config{Scheduled: true, Holds: true, Recovery: rcfg}, Schedule, Held)
	held.Rec = recovery.State{Active: true, Attempt: 1, Check: "inactivity"}
	owed := &recovery.GiveUp{Ended: at(1), How: recovery.Fixed}
	quiet := &Quiet{Kind: "rate_limit", At: at(0), Until: at(2)}
	tests := []struct {
		name  string
		in    State
		ev    Event
		want  string
		check func(State) error
	}{
		{"a recoverable error: the attempt is the takeover wakeup", scheduled, Beat{Findings: stuckFindings},
			"end:schedule:taken_over admit:recovery attempted:recovery", func(s State) error {
				return want(s.Rec.Attempt == 1 && s.Cur.N == 2 && s.Cur.Attempt == 1 && s.Cur.Phase == Queued, "attempt 1 queued behind flight 1: %+v %+v", s.Rec, s.Cur)
			}},
		{"the gate would refuse: recovery waits, nothing is ended", scheduled, Beat{Findings: stuckFindings, Facts: Facts{CapFull: true}},
			"waits:recovery", func(s State) error {
				return want(s.Rec.Attempt == 0 && s.Rec.Held == "daily_cap" && s.Cur.N == 1, "%+v %+v", s.Rec, s.Cur)
			}},
		// A reload drains the gate (closed) while the run in flight is stuck:
		// recovery ends that run at once, so the reload and the next attempt
		// (the new agent's) wait no longer than one pulse, not the run's timeout.
		{"closed by a reload: the takeover ends the stuck run, admits nothing", func() State { s := scheduled; s.Closed = true; return s }(), Beat{Findings: stuckFindings},
			"end:schedule:taken_over", func(s State) error {
				return want(s.Cur == nil && s.Rec.Active && s.Rec.Attempt == 0, "the run still current, or an attempt counted: %+v %+v", s.Cur, s.Rec)
			}},
		{"closed by a reload, a held wakeup: nothing runs, nothing ended", func() State { s := held; s.Rec = recovery.State{}; s.Closed = true; return s }(), Beat{Findings: stuckFindings},
			"", nil},
		{"a person is asked: recovery waits", fresh, Beat{Findings: stuckFindings, Asking: true}, "waits:recovery", noFlight},
		{"an attempt the gate refuses is no attempt", attempting(1, Running, false), Pass{N: 1, Source: Recovery, Facts: Facts{BreakerOpen: true}},
			"skip:recovery count:recovery:skipped_breaker", func(s State) error {
				return want(s.Rec.Active && s.Rec.Attempt == 0, "the attempt still counted: %+v", s.Rec)
			}},
		{"an attempt replaced before the gate is no attempt", attempting(1, Running, false), Ask{Source: Feedback, Takeover: true},
			"end:recovery:taken_over admit:feedback", func(s State) error {
				return want(s.Rec.Attempt == 0, "the attempt still counted: %+v", s.Rec)
			}},
		{"a delivered attempt counts, whatever ends it", attempting(1, Running, true), Ask{Source: Feedback, Takeover: true},
			"end:recovery:taken_over admit:feedback", func(s State) error {
				return want(s.Rec.Attempt == 1, "the attempt taken back: %+v", s.Rec)
			}},
		{"an attempt on its way is not doubled", func() State { s := attempting(1, Queued, false); s.Rec.WaitedCycles = 5; return s }(), Beat{Findings: stuckFindings},
			"", func(s State) error { return want(s.Rec.Attempt == 1 && s.Cur.N == 1, "%+v %+v", s.Rec, s.Cur) }},
		{"ended: the held wakeup is answered by the recovery", held, Beat{}, "recovered:recovery", noFlight},
		{"given up: ends when fixed, and the agent is owed it", func() State {
			s := fresh
			s.Rec = recovery.State{GaveUp: true, Attempt: 2, GaveUpAt: ptr(at(0))}
			return s
		}(), Beat{}, "back:recovery", func(s State) error {
			return want(!s.Rec.GaveUp && s.Rec.Owed != nil && s.Rec.Owed.How == recovery.Fixed, "%+v", s.Rec)
		}},
		{"paused: recovery starts afresh, what is owed is kept", func() State {
			s := attempting(1, Running, true)
			s.Rec.Owed = owed
			return s
		}(), Beat{Findings: stuckFindings, Paused: true}, "", func(s State) error {
			return want(!s.Rec.Active && s.Rec.Owed == owed, "%+v", s.Rec)
		}},
		{"the gate passes a wakeup: it carries what is owed", func() State { s := flying(cfg, Idle, Running); s.Rec.Owed, s.Quiet = owed, quiet; return s }(),
			Pass{N: 1, Source: Idle}, "book:idle worked deliver:idle", nil},
		{"delivered: what it carried is told", func() State { s := flying(cfg, Idle, Running); s.Rec.Owed, s.Quiet = owed, quiet; return s }(),
			Ran{N: 1, Source: Idle, Owed: Owed{GiveUp: owed, Quiet: quiet}}, "worked count:idle:delivered", func(s State) error {
				return want(s.Owed() == Owed{}, "still owed: %+v", s.Owed())
			}},
		{"failed: still owed", func() State { s := flying(cfg, Idle, Running); s.Rec.Owed, s.Quiet = owed, quiet; return s }(),
			Ran{N: 1, Source: Idle, Result: Failed, Owed: Owed{GiveUp: owed, Quiet: quiet}}, "worked count:idle:failed", func(s State) error {
				return want(s.Owed() == Owed{GiveUp: owed, Quiet: quiet}, "let go: %+v", s.Owed())
			}},
		{"a newer give-up owed meanwhile stays owed", func() State { s := flying(cfg, Idle, Running); s.Rec.Owed = &recovery.GiveUp{Ended: at(5)}; return s }(),
			Ran{N: 1, Source: Idle, Owed: Owed{GiveUp: owed}}, "worked count:idle:delivered", func(s State) error {
				return want(s.Rec.Owed != nil, "the newer give-up let go")
			}},
		{"the service's hold is owed from its wait", fresh, Wait{Quiet: quiet}, "worked", func(s State) error {
			return want(s.Quiet == quiet, "not owed: %+v", s.Quiet)
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, effs := Step(tc.in, tc.ev, at(9))
			if s := show(effs); s != tc.want {
				t.Fatalf("effects %q, want %q", s, tc.want)
			}
			if tc.check != nil {
				if err := tc.check(got); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

func ptr(t time.Time) *time.Time { return &t }
