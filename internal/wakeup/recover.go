package wakeup

import (
	"time"

	"github.com/ai-heart/ai-heart/internal/checks"
	"github.com/ai-heart/ai-heart/internal/recovery"
	"github.com/ai-heart/ai-heart/internal/state"
)

// Beat: a pulse's verdict, for recovery: the checks' findings, whether a
// person is being asked, the operator's last resume and pause, and the
// gate's facts as a recovery wakeup would meet them now.
type Beat struct {
	Findings  []checks.Finding
	Asking    bool
	ResumedAt time.Time // the operator's last `watchdog resume` (zero: none)
	Paused    bool
	Facts     Facts
}

// beat is one pulse of recovery (internal/recovery's Step), and what it
// asks of the wakeup's life: an attempt is the takeover wakeup, asked for
// here; recovery ended releases the wakeup it held; a give-up refuses every
// wakeup until it ends (ask, pass).
func (s State) beat(b Beat, now time.Time) (State, []Effect) {
	if b.Paused {
		// A paused agent is not touched: recovery starts afresh with it;
		// what it is owed (a give-up the pause ended too) is told after.
		var eff recovery.Effect
		if s.Rec, eff = s.Rec.Pause(now); eff == recovery.Back {
			return s, []Effect{{Kind: Back, Source: Recovery}}
		}
		return s, nil
	}
	rec, eff := recovery.Step(s.Rec, recovery.Input{Now: now, Findings: b.Findings, Asking: b.Asking, ResumedAt: b.ResumedAt, Held: b.Facts.Refuses()}, s.Cfg.Recovery)
	if (eff == recovery.Attempt || eff == recovery.GaveUp) && s.onItsWay() {
		return s, nil // the last attempt has not reached the agent yet: neither doubled nor given up on
	}
	s.Rec = rec
	switch eff {
	case recovery.Attempt:
		var out []Effect
		s, out = s.ask(Ask{Source: Recovery, Takeover: true, Spent: b.Facts.Spent, CapFull: b.Facts.CapFull}, now)
		if !has(out, Admit) {
			s.Rec = s.Rec.Undo(s.Cfg.Recovery) // it reaches nobody: no attempt
			return s, out
		}
		c := *s.Cur
		c.Attempt = s.Rec.Attempt
		s.Cur = &c
		return s, append(out, Effect{Kind: Attempted, N: c.N, Source: Recovery})
	case recovery.Waiting:
		return s, []Effect{{Kind: Waits, Source: Recovery}}
	case recovery.Recovered:
		if s.Cur != nil && s.Cur.Phase == Held {
			s.Cur = nil // its wakeup is answered by the recovery itself
		}
		return s, []Effect{{Kind: Recovered, Source: Recovery}}
	case recovery.GaveUp:
		return s, []Effect{{Kind: GaveUp, Source: Recovery}}
	case recovery.Back:
		return s, []Effect{{Kind: Back, Source: Recovery}}
	}
	return s, nil
}

// onItsWay reports whether the current flight is a recovery attempt that
// has not passed the gate yet.
func (s State) onItsWay() bool {
	return s.Cur != nil && s.Cur.Attempt != 0 && !s.Cur.Passed
}

// notAttempted takes back the recovery attempt f was, if it is the one
// recovery counts now: f never reached the agent.
func (s State) notAttempted(f *Flight) State {
	if f != nil && f.Attempt != 0 && !f.Passed && s.Rec.Active && s.Rec.Attempt == f.Attempt {
		s.Rec = s.Rec.Undo(s.Cfg.Recovery)
	}
	return s
}

// Refuses is why the gate would refuse a recovery wakeup given these facts,
// as state's Blocked* words ("": it would let one go). A scheduled
// wakeup's spreading and the half-open breaker's probe do not count: a
// recovery wakeup is not spread, and the probe is out for a moment only.
func (x Facts) Refuses() string {
	switch {
	case x.Held:
		return state.BlockedService
	case x.BreakerOpen:
		return state.BlockedBreaker
	case x.Spent:
		return state.BlockedBudget
	case x.CapFull:
		return state.BlockedCap
	}
	return ""
}

func has(effs []Effect, k Kind) bool {
	for _, e := range effs {
		if e.Kind == k {
			return true
		}
	}
	return false
}
