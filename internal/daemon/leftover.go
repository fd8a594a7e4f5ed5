package daemon

import (
	"fmt"
	"path/filepath"

	"github.com/ai-heart/ai-heart/internal/checks"
	"github.com/ai-heart/ai-heart/internal/delivery"
)

// runFile records an exec run while it is alive, in the agent's state
// folder.
const runFile = "run.json"

// endLeftover ends the run a previous watchdog of this agent left alive
// (killed with -9, it could not end it): at most one run is alive at a time,
// across restarts too. The kernel ends the run's leader with the old
// watchdog; this ends what the leader started.
func (a *agent) endLeftover() {
	dir := a.cfg.StateDir()
	if dir == "" {
		return
	}
	pgid, err := delivery.EndLeftover(filepath.Join(dir, runFile), a.cfg.Agent.StopGrace.D())
	if err != nil {
		a.log.Warn().Err(err).Msg("the last run's record")
	}
	if pgid != 0 {
		now := a.clock.Now()
		a.emit(now, a.currentID(), checks.Warning, "run", fmt.Sprintf("ended the run (process group %d) that the previous watchdog process left alive when it was killed; it was no longer supervised", pgid), 0)
	}
}
