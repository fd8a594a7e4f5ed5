package wakeup

import (
	"time"

	"github.com/ai-heart/ai-heart/internal/state"
)

// Step is one event in a wakeup's life: the next state and the effects to
// carry out, in order.
func Step(s State, ev Event, now time.Time) (State, []Effect) {
	switch e := ev.(type) {
	case Ask:
		return s.ask(e, now)
	case Pass:
		return s.pass(e, now)
	case Ran:
		return s.ran(e, now)
	case Pulse:
		return s.pulse(e)
	case Turn:
		var out []Effect
		if f := s.Cur; f != nil && f.Phase == Held && e.Begun.After(f.At) {
			s.Cur = nil
			out = append(out, Effect{Kind: Answered, N: f.N, Source: f.Source, At: f.At})
		}
		if s.Work.answerTurn(e.Begun, e.End) {
			out = append(out, Effect{Kind: Worked})
		}
		return s, out
	case Proof:
		return s.proof(e.At, time.Time{}) // a tool call, not the log that answers
	case Release:
		if s.Cur != nil && s.Cur.Phase == Held {
			s.Cur = nil
		}
		return s, nil
	case Wait:
		if e.Quiet != nil {
			s.Quiet = e.Quiet
		}
		s.Work.answered(now)
		return s, []Effect{{Kind: Worked}}
	case Beat:
		return s.beat(e, now)
	case Close:
		s.Closed = true
		if !e.Stop || s.Stopped {
			return s, nil
		}
		s.Stopped = true
		if f := s.Cur; f != nil && f.Phase != Held { // a held wakeup runs nothing: it stays owed
			return s, []Effect{{Kind: End, N: f.N, Source: f.Source, Outcome: EndStopped}}
		}
		return s, nil
	}
	return s, nil
}

// ask is a chamber asking: refused by what stands (hours, the pause,
// recovery's give-up), coalesced into the flight in progress, or admitted.
func (s State) ask(e Ask, now time.Time) (State, []Effect) {
	count := func(outcome string) (State, []Effect) {
		return s, []Effect{{Kind: Count, Source: e.Source, Outcome: outcome}}
	}
	switch {
	case e.Outside:
		return count(state.OutcomeOutsideHrs)
	case e.Paused:
		return count(state.OutcomePaused)
	case s.Rec.GaveUp:
		return count(state.OutcomeGaveUp)
	case e.Spent:
		s, out := count(state.OutcomeDroppedBudget)
		return s, append(out, Effect{Kind: Spent, Source: e.Source})
	case e.CapFull:
		return count(state.OutcomeDroppedCap)
	case s.Closed && e.Takeover && s.Cur != nil && s.Cur.Phase != Held:
		// A reload waits for the run in flight: a takeover still ends it
		// (else a stuck run holds recovery and the reload to its timeout),
		// and the agent that replaces this one asks again.
		old := s.Cur
		s = s.notAttempted(old)
		s.Cur = nil
		return s, []Effect{{Kind: End, N: old.N, Source: old.Source, Outcome: state.OutcomeTakenOver}}
	case s.Closed:
		return s, nil // the agent that replaces this one asks again
	case s.Cur != nil && !e.Takeover:
		return count(state.OutcomeCoalesced)
	}
	s.LastN++
	f := &Flight{N: s.LastN, Source: e.Source, At: now, Phase: Running}
	var out []Effect
	if old := s.Cur; old != nil {
		if old.Phase != Held {
			f.Prev, f.Phase = old.N, Queued // its run is gone before this one starts
		}
		s = s.notAttempted(old) // a recovery attempt replaced before the gate reached nobody
		out = append(out, Effect{Kind: End, N: old.N, Source: old.Source, Outcome: state.OutcomeTakenOver})
	}
	s.Cur = f
	return s, append(out, Effect{Kind: Admit, N: f.N, Prev: f.Prev, Source: f.Source})
}

// pass is a flight at the gate. The facts are weighed in an order that
// spends nothing on a wakeup that cannot go: a hold before the breaker (a
// run that cannot succeed is no failure to count), the plainly open
// breaker before the budget and the cap (a skipped wakeup spends no cap),
// the cap before the half-open breaker's probe (a dropped wakeup never
// holds the probe).
func (s State) pass(e Pass, now time.Time) (State, []Effect) {
	f := s.Cur
	if s.Stopped {
		if f != nil && f.N == e.N {
			s = s.notAttempted(f)
			s.Cur = nil
		}
		return s, nil // the watchdog stops before it began: no fate
	}
	if f == nil || f.N != e.N {
		return s, []Effect{{Kind: Count, N: e.N, Source: e.Source, Outcome: state.OutcomeCoalesced}} // taken over before it began
	}
	c := *f
	if c.Prev != 0 {
		c.Prev, c.At = 0, now // its wakeup begins now
	}
	c.Phase = Running
	s.Cur = &c
	refuse := func(k ...Effect) (State, []Effect) {
		s = s.notAttempted(&c) // a recovery attempt the gate refuses is no attempt
		s.Cur = nil
		return s, k
	}
	fate := func(outcome string) Effect { return Effect{Kind: Count, N: c.N, Source: c.Source, Outcome: outcome} }
	x := e.Facts
	switch {
	case s.Rec.GaveUp: // asked for before the give-up: it stops waking all the same
		return refuse(fate(state.OutcomeGaveUp))
	case x.Held, x.Spread && c.Source == Schedule:
		return refuse(fate(state.OutcomeHeldService))
	case x.BreakerOpen:
		return refuse(Effect{Kind: Skip, N: c.N, Source: c.Source}, fate(state.OutcomeSkipped))
	case x.Spent:
		return refuse(fate(state.OutcomeDroppedBudget), Effect{Kind: Spent, N: c.N, Source: c.Source})
	case x.CapFull:
		return refuse(Effect{Kind: Drop, N: c.N, Source: c.Source}, fate(state.OutcomeDroppedCap))
	case x.ProbeOut:
		return refuse(Effect{Kind: Skip, N: c.N, Source: c.Source}, fate(state.OutcomeSkipped))
	}
	c.Passed = true
	out := []Effect{{Kind: Book, N: c.N, Source: c.Source}}
	if s.Cfg.RunIsTheWork {
		s.Work.delivered(now) // the run is the work
		out = append(out, Effect{Kind: Worked})
	}
	return s, append(out, Effect{Kind: Deliver, N: c.N, Source: c.Source, At: c.At, Owed: s.Owed()})
}

// ran is a delivery's end: the working stretch, the idle chamber's clock,
// the fate, and whether the flight waits for the agent's answer.
func (s State) ran(e Ran, now time.Time) (State, []Effect) {
	cur := s.Cur != nil && s.Cur.N == e.N
	if e.Result == Stopped || e.Result == Moot {
		if cur {
			s.Cur = nil
		}
		outcome := state.OutcomeFailed
		if e.Result == Moot {
			outcome = state.OutcomeMoot // nothing went to the agent: no answer owed, no work begun
		}
		return s, []Effect{{Kind: Count, N: e.N, Source: e.Source, Outcome: outcome}}
	}
	switch {
	case !s.Cfg.RunIsTheWork:
		if e.Result == OK {
			s.Work.delivered(e.Start) // answered later by the turn's end or a log
		}
	case e.Result == OK:
		s.Work.answered(now) // a successful end of the run answers the wakeup
	case e.Result != TakenOver:
		// No answer: the agent is still working, its stretch counted from
		// the first wakeup, and named for what ended the run.
		s.Work.cut(now, e.Cut)
	}
	s.LastWakeup, s.LastIdle = e.Start, e.Source == Idle
	if e.Source == Idle {
		s.Idle, s.IdleAnswer = true, time.Time{}
	}
	out := []Effect{{Kind: Worked}, {Kind: Count, N: e.N, Source: e.Source, Outcome: e.Result.outcome()}}
	if e.Result == OK {
		s = s.told(e.Owed) // delivered: what its wakeup carried is told
	}
	if cur {
		if e.Result == OK && s.Cfg.Holds && !s.Stopped {
			c := *s.Cur
			c.Phase, c.At = Held, e.Start // a turn begun after its delivery answers it
			s.Cur = &c
		} else {
			s.Cur = nil
		}
	}
	return s, out
}

// outcome is a delivery's fate as the counters name it.
func (r Result) outcome() string {
	switch r {
	case OK:
		return state.OutcomeDelivered
	case ToolCapped:
		return state.OutcomeToolCapped
	case TokenCapped:
		return state.OutcomeTokenCapped
	case Refused:
		return state.OutcomeToolRefused
	case TakenOver:
		return state.OutcomeTakenOver
	}
	return state.OutcomeFailed
}

// pulse folds in what a pulse saw: the working stretch, a proof that ends
// idleness, and a log that answers a held wakeup. A log answers whether or
// not the client's hooks speak: the turn's end is one answer, the log the
// other, and an agent that wrote its log and stays in its turn has
// answered (the docs tell it so).
func (s State) pulse(p Pulse) (State, []Effect) {
	s.Work.observe(p, !s.Cfg.RunIsTheWork)
	var out []Effect
	if !p.NewestProof.IsZero() {
		s, out = s.proof(p.NewestProof, p.LastLog)
	}
	if f := s.Cur; f != nil && f.Phase == Held && !p.LastLog.IsZero() && p.LastLog.After(f.At) {
		s.Cur = nil
		out = append(out, Effect{Kind: Answered, N: f.N, Source: f.Source, At: f.At})
	}
	return s, out
}

// proof is a proof of activity at at (lastLog: the newest log): one after
// the last wakeup ends idleness, but for the first log after an idle
// wakeup where a log answers it (tmux, inbox: "nothing worth doing now",
// as their idle prompt asks): the agent that wrote it is idle still, and
// what arrives next wakes it at once. (A run's end answers under exec.)
func (s State) proof(at, lastLog time.Time) (State, []Effect) {
	if !s.Idle || !at.After(s.LastWakeup) {
		return s, nil
	}
	if !s.Cfg.RunIsTheWork && s.LastIdle && at.Equal(lastLog) && (s.IdleAnswer.IsZero() || s.IdleAnswer.Equal(at)) {
		s.IdleAnswer = at
		return s, nil
	}
	s.Idle, s.IdleAnswer = false, time.Time{}
	return s, []Effect{{Kind: Woke}}
}
