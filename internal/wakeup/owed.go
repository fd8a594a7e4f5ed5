package wakeup

import (
	"time"

	"github.com/ai-heart/ai-heart/internal/recovery"
)

// Owed is what the agent has not been told yet, and the next delivered
// wakeup tells it: a give-up that ended (recovery's Owed, kept in the state
// file) and a quiet spell of the model's service. A flight that passes the
// gate carries what is owed then (Deliver's Owed, which its prompt says);
// its successful delivery lets go of it, unless something newer is owed
// meanwhile. So each is carried by exactly one delivered wakeup.
type Owed struct {
	GiveUp *recovery.GiveUp
	Quiet  *Quiet
}

// Quiet is a hold of the model's service: the first wakeup after it says
// why none came for a while.
type Quiet struct {
	Kind      string    // the failure that began it
	At, Until time.Time // when it began and ended
}

// Owed is what the agent is owed now.
func (s State) Owed() Owed { return Owed{GiveUp: s.Rec.Owed, Quiet: s.Quiet} }

// told lets go of what a delivered wakeup carried, each only if it is
// still the one owed (a give-up is named by its end, a hold by its until).
func (s State) told(o Owed) State {
	if o.GiveUp != nil && s.Rec.Owed != nil && s.Rec.Owed.Ended.Equal(o.GiveUp.Ended) {
		if s.Rec.Active && s.Rec.Attempt > 0 {
			s.Rec.Told = s.Rec.Owed // the attempt under way came back with it
		}
		s.Rec.Owed = nil
	}
	if o.Quiet != nil && s.Quiet != nil && s.Quiet.Until.Equal(o.Quiet.Until) {
		s.Quiet = nil
	}
	return s
}
