package daemon

import (
	"errors"

	"github.com/ai-heart/ai-heart/internal/cost"
	"github.com/ai-heart/ai-heart/internal/delivery"
	"github.com/ai-heart/ai-heart/internal/transcript"
)

// spend books what one wakeup's run used: u is its usage (nil: the client
// reported none, booked as unknown), outcome one of cost.Worked, Ghost,
// Failed, Capped. It returns the run's measure for its transcript line. This
// is the one door into the ledger: exec runs come through account, and a
// tmux session's usage (its Stop hook's transcript) can come through here.
func (a *agent) spend(source, outcome string, u *cost.Usage) cost.Run {
	r := cost.Measure(u, a.cfg.Prices)
	if err := a.ledger.Record(a.clock.Now(), source, outcome, r); err != nil {
		a.log.Warn().Err(err).Msg("cost ledger")
	}
	return r
}

// costOutcome is the ledger's outcome of an exec run that ended with err.
func costOutcome(res delivery.Result, err error) string {
	switch {
	case errors.Is(err, delivery.ErrToolCap), errors.Is(err, delivery.ErrTokenCap):
		return cost.Capped
	case err != nil:
		return cost.Failed
	case transcript.IsGhost(res.Reply):
		return cost.Ghost
	}
	return cost.Worked
}
