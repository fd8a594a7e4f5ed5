package daemon

import (
	"context"
	"time"

	"github.com/ai-heart/ai-heart/internal/state"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// sweepLoop removes the temp files that killed writers left behind (see
// workspace.SweepTemps) at start and then every workspace.TempMaxAge. It runs
// beside the pulse: listing large histories folders never delays a pulse.
func (a *agent) sweepLoop(ctx context.Context) {
	t := time.NewTicker(workspace.TempMaxAge)
	defer t.Stop()
	for {
		n, err := a.ws.SweepTemps(a.clock.Now(), workspace.TempMaxAge)
		if err != nil {
			a.log.Warn().Err(err).Msg("sweep temp files")
		}
		if n > 0 {
			a.count(func(c *state.Counters) { c.SweptTempFiles += int64(n) })
			a.log.Info().Int("files", n).Msg("swept temp files left by killed writers")
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
