// Package recovery decides, pulse by pulse, how the watchdog brings a stalled
// agent back. It is pure: Step takes the last state, what this pulse saw and
// now, and returns the next state and the one thing to do.
//
// Its promises:
//   - only a recoverable check at error opens recovery or holds it open
//     (introspection never does), and recovery ends as soon as none is;
//   - each attempt names the check that holds it now, never the one that
//     opened it;
//   - nothing is attempted while a person is being asked (a permission
//     prompt), nor while the gate would refuse the wakeup (the daily cap,
//     the budget, the breaker, the model's service hold): an attempt that
//     cannot be delivered is no attempt, so recovery waits, says why once,
//     and never gives up on an agent it could not reach;
//   - giving up ends: when no recoverable check is at error any more, on the
//     operator's resume, or after ResumeAfter; and what happened is owed to
//     the agent until a delivered wakeup carries it.
package recovery

import (
	"time"

	"github.com/ai-heart/ai-heart/internal/checks"
)

// Config is what recovery needs from the configuration.
type Config struct {
	MaxAttempts   int // failed attempts before giving up
	MaxWaitCycles int // pulses to wait after an attempt before the next
	// ResumeAfter ends a give-up by itself after this long (0: only when
	// fixed or resumed by the operator).
	ResumeAfter time.Duration
}

// State is recovery's state, kept in the watchdog's state file.
type State struct {
	Active       bool `json:"active"`
	Attempt      int  `json:"attempt"` // 0 while opened but waiting for a person
	WaitedCycles int  `json:"waited_cycles"`
	GaveUp       bool `json:"gave_up"`
	// Check and Reason are the recoverable check that holds recovery now
	// and its alert line.
	Check     string     `json:"check,omitempty"`
	Reason    string     `json:"reason,omitempty"`
	StartedAt *time.Time `json:"started_at,omitempty"`
	// AttemptAt is when the current attempt began: a recovery log written
	// after it answers that attempt's notice.
	AttemptAt *time.Time `json:"attempt_at,omitempty"`
	// Asking: recovery waits while a person is being asked (said once).
	Asking bool `json:"asking,omitempty"`
	// Held is why the gate would refuse a wakeup now (one of state's
	// Blocked* words: daily_cap, budget_spent...): recovery waits for it
	// as for a person (said once).
	Held     string     `json:"held,omitempty"`
	GaveUpAt *time.Time `json:"gave_up_at,omitempty"`
	// ResumeBy is when a give-up ends by itself (nil: only when fixed or
	// resumed).
	ResumeBy *time.Time `json:"resume_by,omitempty"`
	// Owed is the give-up the agent has not been told of yet: set when
	// waking comes back, cleared when a delivered wakeup carried it.
	Owed *GiveUp `json:"owed,omitempty"`
	// Told is the give-up the current attempt's wakeup told the agent of,
	// coming back: its notice stands for that attempt in place of a new
	// "RECOVERY (attempt 1 of N)" (which read as a second story beside
	// "tried N times"); the next attempt clears it.
	Told *GiveUp `json:"told,omitempty"`
}

// GiveUp is a give-up that ended, as the agent is told of it.
type GiveUp struct {
	At       time.Time `json:"at"`
	Ended    time.Time `json:"ended"`
	Check    string    `json:"check,omitempty"`
	Attempts int       `json:"attempts"`
	How      Return    `json:"how"`
}

// Return is how a give-up ended.
type Return string

// The ways a give-up ends.
const (
	Fixed   Return = "fixed"   // no recoverable check at error any more
	Resumed Return = "resumed" // the operator's `watchdog resume`
	Timed   Return = "timed"   // ResumeAfter passed
	Paused  Return = "paused"  // the operator paused the agent
)

// Effect is what the watchdog does after a step.
type Effect int

// The effects.
const (
	None      Effect = iota
	Attempt          // interrupt the agent and deliver the recovery notice
	Waiting          // a person is being asked, or the gate would refuse: nothing typed; tell the operator once
	Recovered        // no recoverable check at error: recovery ends
	GaveUp           // attempts exhausted: stop waking the agent
	Back             // a give-up ended: waking resumes; tell the operator
)

func (e Effect) String() string {
	return [...]string{"none", "attempt", "waiting", "recovered", "gave_up", "back"}[e]
}

// Input is what one pulse saw.
type Input struct {
	Now      time.Time
	Findings []checks.Finding
	// Asking: the client's hooks say a person is being asked right now.
	Asking bool
	// ResumedAt is the operator's last `watchdog resume` (zero: none).
	ResumedAt time.Time
	// Held is why the gate would refuse a wakeup now ("": it would not).
	Held string
}

// holder returns the first recoverable error among findings: the check
// that holds recovery now.
func holder(findings []checks.Finding) (checks.Finding, bool) {
	for _, f := range findings {
		if f.Level == checks.Error && checks.Recoverable(f.Check) {
			return f, true
		}
	}
	return checks.Finding{}, false
}

// Pause is the operator's pause: a paused agent is not touched, so
// recovery starts afresh with it, keeping what is owed; a give-up ends
// (Back), and the first wakeup after the pause tells the agent of it.
func (s State) Pause(now time.Time) (State, Effect) {
	if !s.GaveUp {
		return State{Owed: s.Owed}, None
	}
	g := GiveUp{Ended: now, Check: s.Check, Attempts: s.Attempt, How: Paused}
	if s.GaveUpAt != nil {
		g.At = *s.GaveUpAt
	}
	return State{Owed: &g}, Back
}

// Step is one pulse of recovery.
func Step(s State, in Input, cfg Config) (State, Effect) {
	now := in.Now
	f, stuck := holder(in.Findings)
	if s.GaveUp {
		how := Return("")
		switch {
		case !stuck:
			how = Fixed
		case s.GaveUpAt != nil && in.ResumedAt.After(*s.GaveUpAt):
			how = Resumed
		case s.ResumeBy != nil && !now.Before(*s.ResumeBy):
			how = Timed
		}
		if how == "" {
			return s, None
		}
		g := GiveUp{Ended: now, Check: s.Check, Attempts: s.Attempt, How: how}
		if s.GaveUpAt != nil {
			g.At = *s.GaveUpAt
		}
		return State{Owed: &g}, Back
	}
	if !stuck {
		if s.Active {
			return State{Owed: s.Owed}, Recovered
		}
		return s, None
	}
	s.Check, s.Reason = f.Check, f.Message // the check that holds it now
	if !s.Active {
		t := now
		s.Active, s.StartedAt, s.Attempt, s.WaitedCycles = true, &t, 0, 0
	}
	if in.Asking {
		// Keys typed now would cancel a person's prompt; the wait does
		// not count towards giving up.
		if s.Asking {
			return s, None
		}
		s.Asking = true
		return s, Waiting
	}
	s.Asking = false
	if in.Held != "" {
		// An attempt the gate refuses reaches nobody: it is not one, and
		// the wait does not count towards giving up.
		if s.Held == in.Held {
			return s, None
		}
		s.Held = in.Held
		return s, Waiting
	}
	s.Held = ""
	if s.Attempt == 0 {
		return attempt(s, now), Attempt
	}
	s.WaitedCycles++
	if s.WaitedCycles < cfg.MaxWaitCycles {
		return s, None
	}
	if s.Attempt >= cfg.MaxAttempts {
		t := now
		s.Active, s.GaveUp, s.GaveUpAt = false, true, &t
		if cfg.ResumeAfter > 0 {
			by := now.Add(cfg.ResumeAfter)
			s.ResumeBy = &by
		}
		return s, GaveUp
	}
	return attempt(s, now), Attempt
}

func attempt(s State, now time.Time) State {
	t := now
	s.Attempt++
	s.WaitedCycles = 0
	s.AttemptAt = &t
	s.Told = nil
	return s
}

// Undo takes back the current attempt: its wakeup never reached the agent
// (the gate refused it, or another replaced it before the gate). The next
// pulse attempts again rather than wait, and the give-up counts only the
// attempts that reached the agent.
func (s State) Undo(cfg Config) State {
	if s.Attempt > 0 {
		s.Attempt--
	}
	if s.Attempt > 0 {
		s.WaitedCycles = max(cfg.MaxWaitCycles-1, 0)
	}
	return s
}
