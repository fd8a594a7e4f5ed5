package daemon

import (
	"github.com/ai-heart/ai-heart/internal/day"
	"github.com/ai-heart/ai-heart/internal/state"
)

// markStart puts on the day strip the time no watchdog ran before this
// start: from the last pulse of the run before (a crash or a kill leaves
// no mark of its own) until the first pulse marks the agent's mode.
func (a *agent) markStart() {
	prev, err := state.Load(a.dir)
	if err != nil || prev.PulseAt.IsZero() || !prev.PulseAt.Before(a.clock.Now()) {
		return
	}
	if err := a.day.Mode(prev.PulseAt, day.Stopped); err != nil {
		a.log.Debug().Err(err).Msg("day strip")
	}
}

// markStop ends the strip's last mode when the watchdog stops.
func (a *agent) markStop() {
	if err := a.day.Mode(a.clock.Now(), day.Stopped); err != nil {
		a.log.Debug().Err(err).Msg("day strip")
	}
}
