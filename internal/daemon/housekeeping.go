package daemon

import (
	"context"
	"errors"
	"time"

	"github.com/ai-heart/ai-heart/internal/checks"
	"github.com/ai-heart/ai-heart/internal/day"
	"github.com/ai-heart/ai-heart/internal/state"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// sweepLoop removes the temp files that killed writers left behind (see
// workspace.SweepTemps) at start and then every workspace.TempMaxAge. It runs
// beside the pulse: listing large histories folders never delays a pulse.
func (a *agent) sweepLoop(ctx context.Context) {
	t := time.NewTicker(workspace.TempMaxAge)
	defer t.Stop()
	said := ""
	for {
		n, err := a.ws.SweepTemps(a.clock.Now(), workspace.TempMaxAge)
		if err != nil {
			a.log.Warn().Err(err).Msg("sweep temp files")
		}
		// A folder linked out of the workspace is the operator's to know
		// of: the sweep leaves it alone, and says so once per change.
		if errors.Is(err, workspace.ErrOutside) && err.Error() != said {
			a.emit(a.clock.Now(), a.currentID(), checks.Warning, "workspace", "a folder links out of the workspace, so the sweep leaves it alone: "+err.Error(), 0)
		}
		if err != nil {
			said = err.Error()
		}
		if err := day.Prune(a.dir, a.loc, a.clock.Now()); err != nil {
			a.log.Warn().Err(err).Msg("prune the day files")
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
