package recovery

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/checks"
)

var t0 = time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC)

func at(d time.Duration) *time.Time { t := t0.Add(d); return &t }

// levels builds a pulse's findings from check levels.
func levels(m map[string]checks.Level) []checks.Finding {
	var out []checks.Finding
	for _, name := range []string{checks.Inactivity, checks.Introspection, checks.Feedback, checks.StaleID} {
		out = append(out, checks.Finding{Check: name, Level: m[name], Message: name + " now"})
	}
	return out
}

var (
	stalled    = levels(map[string]checks.Level{checks.Inactivity: checks.Error})
	staleOnly  = levels(map[string]checks.Level{checks.StaleID: checks.Error})
	introError = levels(map[string]checks.Level{checks.Introspection: checks.Error})
	bothErrors = levels(map[string]checks.Level{checks.Inactivity: checks.Error, checks.Introspection: checks.Error})
	warning    = levels(map[string]checks.Level{checks.Inactivity: checks.Warning})
	fine       = levels(map[string]checks.Level{checks.Feedback: checks.Info})
)

func TestStep(t *testing.T) {
	cfg := Config{MaxAttempts: 2, MaxWaitCycles: 3, ResumeAfter: time.Hour}
	gaveUp := State{GaveUp: true, Attempt: 2, Check: checks.Inactivity, Reason: "inactivity now", GaveUpAt: at(0), ResumeBy: at(time.Hour)}
	tests := []struct {
		name   string
		in     State
		pulse  Input
		effect Effect
		want   State
	}{
		{"healthy stays closed", State{}, Input{Findings: fine}, None, State{}},
		{"a warning opens nothing", State{}, Input{Findings: warning}, None, State{}},
		{"an introspection error opens nothing", State{}, Input{Findings: introError}, None, State{}},
		{"a recoverable error opens attempt 1", State{}, Input{Findings: stalled}, Attempt,
			State{Active: true, Attempt: 1, Check: checks.Inactivity, Reason: "inactivity now"}},
		{"a person being asked: opened, nothing typed", State{}, Input{Findings: stalled, Asking: true}, Waiting,
			State{Active: true, Check: checks.Inactivity, Reason: "inactivity now", Asking: true}},
		{"still asking: said once", State{Active: true, Check: checks.Inactivity, Asking: true}, Input{Findings: stalled, Asking: true}, None,
			State{Active: true, Check: checks.Inactivity, Reason: "inactivity now", Asking: true}},
		{"the person answered: attempt 1 at once", State{Active: true, Check: checks.Inactivity, Asking: true}, Input{Findings: stalled}, Attempt,
			State{Active: true, Attempt: 1, Check: checks.Inactivity, Reason: "inactivity now"}},
		{"asking mid-recovery: the wait does not count", State{Active: true, Attempt: 1, WaitedCycles: 2}, Input{Findings: stalled, Asking: true}, Waiting,
			State{Active: true, Attempt: 1, WaitedCycles: 2, Check: checks.Inactivity, Reason: "inactivity now", Asking: true}},
		{"the gate refuses: opened, no attempt, said once", State{}, Input{Findings: stalled, Held: "daily_cap"}, Waiting,
			State{Active: true, Check: checks.Inactivity, Reason: "inactivity now", Held: "daily_cap"}},
		{"still refused: nothing", State{Active: true, Held: "daily_cap"}, Input{Findings: stalled, Held: "daily_cap"}, None,
			State{Active: true, Check: checks.Inactivity, Reason: "inactivity now", Held: "daily_cap"}},
		{"refused mid-recovery: the wait does not count towards giving up", State{Active: true, Attempt: 2, WaitedCycles: 2}, Input{Findings: stalled, Held: "budget_spent"}, Waiting,
			State{Active: true, Attempt: 2, WaitedCycles: 2, Check: checks.Inactivity, Reason: "inactivity now", Held: "budget_spent"}},
		{"the gate lets wakeups go again: attempt 1", State{Active: true, Held: "daily_cap"}, Input{Findings: stalled}, Attempt,
			State{Active: true, Attempt: 1, Check: checks.Inactivity, Reason: "inactivity now"}},
		{"waiting under the limit", State{Active: true, Attempt: 1, WaitedCycles: 1}, Input{Findings: stalled}, None,
			State{Active: true, Attempt: 1, WaitedCycles: 2, Check: checks.Inactivity, Reason: "inactivity now"}},
		{"the next attempt names the check that holds it now", State{Active: true, Attempt: 1, WaitedCycles: 2, Check: checks.Inactivity, Reason: "old"}, Input{Findings: staleOnly}, Attempt,
			State{Active: true, Attempt: 2, Check: checks.StaleID, Reason: "stale_id now"}},
		{"an introspection error never holds recovery", State{Active: true, Attempt: 1, Check: checks.Inactivity}, Input{Findings: introError}, Recovered, State{}},
		{"a warning ends recovery", State{Active: true, Attempt: 1}, Input{Findings: warning}, Recovered, State{}},
		{"both errors: inactivity holds", State{Active: true, Attempt: 1, WaitedCycles: 2}, Input{Findings: bothErrors}, Attempt,
			State{Active: true, Attempt: 2, Check: checks.Inactivity, Reason: "inactivity now"}},
		{"attempts exhausted: gives up", State{Active: true, Attempt: 2, WaitedCycles: 2}, Input{Findings: stalled}, GaveUp,
			State{GaveUp: true, Attempt: 2, WaitedCycles: 3, Check: checks.Inactivity, Reason: "inactivity now"}},
		{"given up: held while stuck", gaveUp, Input{Now: t0.Add(time.Minute), Findings: stalled}, None, gaveUp},
		{"given up: an introspection error alone does not keep the agent asleep", gaveUp, Input{Now: t0.Add(time.Minute), Findings: introError}, Back,
			State{Owed: &GiveUp{At: t0, Ended: t0.Add(time.Minute), Check: checks.Inactivity, Attempts: 2, How: Fixed}}},
		{"given up: the operator's resume", gaveUp, Input{Now: t0.Add(2 * time.Minute), Findings: stalled, ResumedAt: t0.Add(time.Minute)}, Back,
			State{Owed: &GiveUp{At: t0, Ended: t0.Add(2 * time.Minute), Check: checks.Inactivity, Attempts: 2, How: Resumed}}},
		{"given up: a resume from before does not count", gaveUp, Input{Now: t0.Add(2 * time.Minute), Findings: stalled, ResumedAt: t0.Add(-time.Minute)}, None, gaveUp},
		{"given up: ends by itself after resume_after", gaveUp, Input{Now: t0.Add(time.Hour), Findings: stalled}, Back,
			State{Owed: &GiveUp{At: t0, Ended: t0.Add(time.Hour), Check: checks.Inactivity, Attempts: 2, How: Timed}}},
		{"what is owed survives a new recovery", State{Owed: &GiveUp{How: Fixed}}, Input{Findings: stalled}, Attempt,
			State{Active: true, Attempt: 1, Check: checks.Inactivity, Reason: "inactivity now", Owed: &GiveUp{How: Fixed}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, eff := Step(tc.in, tc.pulse, cfg)
			if eff != tc.effect {
				t.Fatalf("effect = %v, want %v (state %+v)", eff, tc.effect, got)
			}
			if tc.want.GaveUpAt == nil && eff == GaveUp && got.GaveUpAt == nil {
				t.Fatal("a give-up without its time can never end by itself")
			}
			got.StartedAt, got.AttemptAt = nil, nil
			if eff == GaveUp {
				if got.ResumeBy == nil || !got.ResumeBy.Equal(got.GaveUpAt.Add(cfg.ResumeAfter)) {
					t.Fatalf("resume_by = %v, want resume_after after the give-up", got.ResumeBy)
				}
				got.GaveUpAt, got.ResumeBy = nil, nil
			}
			if !equal(got, tc.want) {
				t.Fatalf("state = %+v (owed %+v), want %+v (owed %+v)", got, got.Owed, tc.want, tc.want.Owed)
			}
		})
	}
}

func equal(a, b State) bool {
	if (a.Owed == nil) != (b.Owed == nil) || (a.Owed != nil && *a.Owed != *b.Owed) {
		return false
	}
	for _, p := range [][2]*time.Time{{a.GaveUpAt, b.GaveUpAt}, {a.ResumeBy, b.ResumeBy}} {
		if (p[0] == nil) != (p[1] == nil) || (p[0] != nil && !p[0].Equal(*p[1])) {
			return false
		}
	}
	a.Owed, b.Owed, a.Told, b.Told, a.GaveUpAt, b.GaveUpAt, a.ResumeBy, b.ResumeBy = nil, nil, nil, nil, nil, nil, nil, nil
	return a == b
}

// TestStepInvariants drives random pulses through the machine and checks
// what must hold after every step, whatever the order.
func TestStepInvariants(t *testing.T) {
	cfg := Config{MaxAttempts: 3, MaxWaitCycles: 2, ResumeAfter: 10 * time.Minute}
	pulses := [][]checks.Finding{stalled, staleOnly, introError, bothErrors, warning, fine}
	for seed := range uint64(200) {
		r := rand.New(rand.NewPCG(seed, 7))
		var s State
		now := t0
		var resumed time.Time
		for range 300 {
			now = now.Add(time.Minute)
			in := Input{Now: now, Findings: pulses[r.IntN(len(pulses))], Asking: r.IntN(5) == 0, ResumedAt: resumed}
			if r.IntN(5) == 0 {
				in.Held = "daily_cap"
			}
			if r.IntN(40) == 0 {
				resumed = now
				in.ResumedAt = now
			}
			prev := s
			var eff Effect
			s, eff = Step(s, in, cfg)
			f, stuck := holder(in.Findings)
			switch eff {
			case Attempt:
				if in.Asking || in.Held != "" {
					t.Fatalf("seed %d: an attempt while a person is being asked or the gate refuses", seed)
				}
				if !stuck || s.Check != f.Check {
					t.Fatalf("seed %d: attempt names %q, the holder now is %q (stuck %v)", seed, s.Check, f.Check, stuck)
				}
				if s.Attempt > cfg.MaxAttempts {
					t.Fatalf("seed %d: attempt %d of %d", seed, s.Attempt, cfg.MaxAttempts)
				}
			case Waiting:
				if (in.Asking && prev.Asking) || (!in.Asking && prev.Held == in.Held) {
					t.Fatalf("seed %d: the operator told twice of the same wait", seed)
				}
			case GaveUp:
				if in.Held != "" || in.Asking {
					t.Fatalf("seed %d: gave up while the gate refused or a person was asked", seed)
				}
				if prev.Attempt != cfg.MaxAttempts || s.GaveUpAt == nil {
					t.Fatalf("seed %d: gave up after %d attempts", seed, prev.Attempt)
				}
			}
			if s.Active && !stuck {
				t.Fatalf("seed %d: recovery held open with no recoverable error (%v)", seed, eff)
			}
			if s.Active && s.GaveUp {
				t.Fatalf("seed %d: active and given up", seed)
			}
			if s.GaveUp && !now.Before(s.GaveUpAt.Add(cfg.ResumeAfter)) {
				t.Fatalf("seed %d: still given up %s after giving up", seed, now.Sub(*s.GaveUpAt))
			}
		}
	}
}

// TestUndo: an attempt taken back is attempted again at the next pulse,
// and the give-up counts only the attempts that reached the agent.
func TestUndo(t *testing.T) {
	cfg := Config{MaxAttempts: 2, MaxWaitCycles: 3}
	for _, tc := range []struct {
		name string
		in   State
	}{
		{"the first attempt", State{Active: true, Attempt: 1, Check: checks.Inactivity}},
		{"the last attempt", State{Active: true, Attempt: 2, Check: checks.Inactivity}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			u := tc.in.Undo(cfg)
			if u.Attempt != tc.in.Attempt-1 {
				t.Fatalf("attempt %d after the undo, want %d", u.Attempt, tc.in.Attempt-1)
			}
			next, eff := Step(u, Input{Now: t0, Findings: stalled}, cfg)
			if eff != Attempt || next.Attempt != tc.in.Attempt {
				t.Fatalf("the next pulse: %v, attempt %d; want attempt %d again", eff, next.Attempt, tc.in.Attempt)
			}
		})
	}
}

// TestPauseEndsAGiveUp: a pause starts recovery afresh, keeping what is
// owed; a give-up it ends is owed to the agent (it once ended in silence).
func TestPauseEndsAGiveUp(t *testing.T) {
	at := t0
	s, eff := (State{Active: true, Attempt: 2, Check: checks.Inactivity, Owed: &GiveUp{How: Fixed}}).Pause(t0.Add(time.Minute))
	if eff != None || s.Active || s.Owed == nil || s.Owed.How != Fixed {
		t.Fatalf("pause of an active recovery = %+v, %v", s, eff)
	}
	s, eff = (State{Active: true, GaveUp: true, GaveUpAt: &at, Attempt: 2, Check: checks.Inactivity}).Pause(t0.Add(time.Minute))
	if eff != Back || s.GaveUp || s.Owed == nil || s.Owed.How != Paused || s.Owed.Attempts != 2 || !s.Owed.At.Equal(t0) || !s.Owed.Ended.Equal(t0.Add(time.Minute)) {
		t.Fatalf("pause of a give-up = %+v (owed %+v), %v", s, s.Owed, eff)
	}
}
