package daemon

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/rs/zerolog"

	"github.com/ai-heart/ai-heart/internal/budget"
	"github.com/ai-heart/ai-heart/internal/checks"
	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/cost"
	"github.com/ai-heart/ai-heart/internal/day"
	"github.com/ai-heart/ai-heart/internal/state"
	"github.com/ai-heart/ai-heart/internal/statefile"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// The watchdog's own state (the lock, the state file, the daily cap, the
// circuit breaker, the cost ledger, the day strip, the pause) lives in the
// agent's state folder, outside the workspace: the agent writes anything in
// its workspace, and a watchdog that kept its counts there could be fooled
// (a lock held for it), kept from starting (a FIFO where a file should be)
// or handed a fresh budget (a count rewritten or removed).

// stateCheck names the alerts about the state folder.
const stateCheck = "state_dir"

// legacyState lists where the watchdog kept its state in the workspace
// before, workspace-relative: `watchdog migrate` moves them.
var legacyState = []string{"stats/" + budget.DailyCapFile, "stats/" + budget.BreakerFile, "stats/" + cost.File, "stats/" + day.Dir}

// guards are an agent's daily cap, breaker and ledger, opened from its
// state folder, and what the operator should hear of them once.
type guards struct {
	cap     *budget.DailyCap
	breaker *budget.Breaker
	ledger  *cost.Ledger
	notes   []string // warnings for the first pulse
}

// openGuards opens the cap, the breaker and the ledger of cfg's state
// folder dir (created 0700). A damaged file is never fatal: the cap and
// the ledger count the day as spent, the breaker starts closed.
func openGuards(cfg config.AgentConfig, ws *workspace.Workspace, loc *time.Location, now time.Time, log zerolog.Logger) (guards, error) {
	var g guards
	dir := cfg.StateDir()
	if err := statefile.EnsureDir(dir); err != nil {
		return g, fmt.Errorf("agent %s: %w", cfg.DisplayName(), err)
	}
	log = log.With().Str("agent", cfg.DisplayName()).Logger()
	var err error
	if g.cap, err = budget.OpenDailyCap(dir, cfg.DailyCap, loc); errors.Is(err, statefile.ErrCorrupt) {
		log.Warn().Err(err).Msg("daily cap state unreadable; today counts as spent (a bad file never grants a fresh budget)")
	} else if err != nil {
		return g, fmt.Errorf("agent %s: %w", cfg.DisplayName(), err)
	}
	if g.breaker, err = budget.OpenBreaker(dir, cfg.CircuitBreaker); errors.Is(err, statefile.ErrCorrupt) {
		log.Warn().Err(err).Msg("circuit breaker state unreadable; starting fresh")
	} else if err != nil {
		return g, fmt.Errorf("agent %s: %w", cfg.DisplayName(), err)
	}
	g.notes = lostLedger(dir, now, loc)
	if g.ledger, err = cost.Open(dir, loc, now); err != nil {
		log.Warn().Err(err).Msg("cost ledger unreadable; today counts as spent for the daily budget (a bad file never grants a fresh budget)")
	}
	if n := legacyNote(ws, dir); n != "" {
		g.notes = append(g.notes, n)
	}
	for _, n := range g.notes {
		log.Warn().Str("check", stateCheck).Msg(n)
	}
	return g, nil
}

// lostLedger says so when the last run's state file counted runs or a used
// cap today but the ledger or the cap file is gone: their counts start
// again from 0, which only someone who can write the state folder can
// cause, and the operator must hear of.
func lostLedger(dir string, now time.Time, loc *time.Location) []string {
	prev, err := state.Load(dir)
	if err != nil {
		return nil
	}
	var out []string
	var runs int64
	if prev.Cost != nil {
		for _, c := range prev.Cost.Totals {
			runs += c.Runs
		}
	}
	if _, err := os.Lstat(filepath.Join(dir, cost.File)); errors.Is(err, os.ErrNotExist) && runs > 0 {
		out = append(out, fmt.Sprintf("the cost ledger %s is gone, though the last run's state counted %d runs: today's spending and the totals start again from 0", filepath.Join(dir, cost.File), runs))
	}
	if _, err := os.Lstat(filepath.Join(dir, budget.DailyCapFile)); errors.Is(err, os.ErrNotExist) && prev.DailyCap.Limit > 0 && prev.DailyCap.Used > 0 && prev.DailyCap.Day == budget.Day(now, loc) {
		out = append(out, fmt.Sprintf("the daily cap's count %s is gone, though the last run's state had used %d of %d today: today's count starts again from 0", filepath.Join(dir, budget.DailyCapFile), prev.DailyCap.Used, prev.DailyCap.Limit))
	}
	return out
}

// legacyNote says so, once, when the workspace still holds the state the
// watchdog kept there before and the state folder holds none: the old
// copies are not read (the agent can write them), and `watchdog migrate`
// moves them.
func legacyNote(ws *workspace.Workspace, dir string) string {
	for _, f := range []string{budget.DailyCapFile, budget.BreakerFile, cost.File, day.Dir} {
		if _, err := os.Lstat(filepath.Join(dir, f)); err == nil {
			return ""
		}
	}
	var old []string
	for _, rel := range legacyState {
		if _, err := os.Lstat(ws.Path(rel)); err == nil {
			old = append(old, rel)
		}
	}
	if len(old) == 0 {
		return ""
	}
	return strings.Join(old, ", ") + " in the workspace are no longer read: the agent can write there, so the daily cap, the breaker, the cost ledger and the day strip now live in " + dir +
		", and start from 0. To carry them over: stop the watchdog, run `watchdog migrate " + ws.Root + "`, start it again"
}

// noteStateDir emits the state folder's notes, once, on the first pulse.
func (a *agent) noteStateDir(b *beat) {
	notes := a.stateNotes
	a.stateNotes = nil
	for _, n := range notes {
		a.emit(b.now, b.id, checks.Warning, stateCheck, n, 0)
	}
}

// saveState writes st to the agent's state folder and publishes the copy
// the agent's tools read, both at once (see state.SaveAndPublish): durably
// when what a restarted watchdog reads back changed since the last durable
// write (the first write of a run always is).
func (a *agent) saveState(st state.State) error {
	key := adoptedOf(st)
	durable := a.synced.differs(key)
	serr, perr := state.SaveAndPublish(a.dir, a.ws, st, durable)
	if serr != nil {
		return serr
	}
	if durable {
		key.channels, key.dismissed = maps.Clone(key.channels), maps.Clone(key.dismissed) // kept past this state
		a.synced = key
	}
	if perr != nil {
		return fmt.Errorf("publish state: %w", perr)
	}
	return nil
}

// adopted is what a restart reads back from the state file (restoreChannels,
// restoreLimits and lostLedger); the last pulse's time it reads too
// (markStart) is allowed to lag after a power cut.
type adopted struct {
	valid     bool
	channels  state.Channels
	dismissed map[string]time.Time
	runs      int64
	cap       budget.CapState
}

func adoptedOf(st state.State) adopted {
	k := adopted{valid: true, channels: st.Channels, dismissed: st.Chambers.Schedule.Dismissed, cap: st.DailyCap}
	if st.Cost != nil {
		for _, c := range st.Cost.Totals {
			k.runs += c.Runs
		}
	}
	return k
}

// differs reports whether a write holding k must be durable after one
// holding synced: always when nothing was synced yet.
func (synced adopted) differs(k adopted) bool {
	return !synced.valid || synced.runs != k.runs || synced.cap != k.cap ||
		!maps.EqualFunc(synced.channels, k.channels, time.Time.Equal) ||
		!maps.EqualFunc(synced.dismissed, k.dismissed, time.Time.Equal)
}
