package daemon

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/ai-heart/ai-heart/internal/checks"
	"github.com/ai-heart/ai-heart/internal/cost"
	"github.com/ai-heart/ai-heart/internal/delivery"
	"github.com/ai-heart/ai-heart/internal/transcript"
)

// spend books what one wakeup's run used: u is its usage (nil: the client
// reported none, booked as unknown), outcome one of cost.Worked, Ghost,
// Failed, Capped. It returns the run's measure for its transcript line. This
// is the one door into the ledger: exec runs come through account, and a
// tmux session's usage (its Stop hook's transcript) can come through here.
// from says where u came from (cost.FromStream, FromTranscript,
// FromTelemetry). What the agent's side reported is vetted here: an implausible report (a
// negative count, more than budget.max_report_tokens) is a "usage" alert
// and is booked as unknown, never as a credit.
func (a *agent) spend(source, outcome string, u *cost.Usage, from string) cost.Run {
	r, err := cost.Vet(u, a.cfg.Prices, a.cfg.Budget)
	if r.Usage != nil {
		r.Source = from // one source per run: the ledger says which
	}
	now := a.clock.Now()
	if err != nil {
		a.emit(now, a.currentID(), checks.Warning, "usage", fmt.Sprintf("a %s run's usage cannot be true (%v): booked as unknown usage; the client's output or transcript may have been tampered with", source, err), 0)
	}
	a.wrote(now, "cost ledger", a.ledger.Record(now, source, outcome, r))
	a.checkBudget(now)
	if a.fleet != nil {
		a.fleet.check(now)
	}
	return r
}

// budgetSpent reports whether the daily budget allows no wakeup now.
func (a *agent) budgetSpent(now time.Time) bool {
	return a.cfg.Budget.On() && a.ledger.Budget(now, a.cfg.Budget).Spent
}

// checkBudget alerts, once per local day each, when today's use reaches
// budget.warn_at and when the budget is spent. A run in flight when it is
// spent finishes; the next wakeup does not start.
func (a *agent) checkBudget(now time.Time) {
	n, err := a.ledger.Check(now, a.cfg.Budget)
	a.wrote(now, "cost ledger", err)
	st := n.State
	if n.Warn && !n.Spent {
		a.emit(now, a.currentID(), checks.Warning, "budget", fmt.Sprintf("%.0f%% of today's budget used: %s", st.WarnAt*100, budgetUse(st)), 0)
	}
	if n.Spent {
		a.emit(now, a.currentID(), checks.Warning, "budget", fmt.Sprintf("daily budget spent (%s): no wakeups from any source until local midnight; recovery only alerts", st.Reason), 0)
	}
}

// budgetUse says today's use against each daily budget that is set.
func budgetUse(st cost.BudgetState) string {
	var parts []string
	if st.DailyTokens > 0 {
		parts = append(parts, fmt.Sprintf("%d of %d tokens", st.UsedTokens, st.DailyTokens))
	}
	if st.DailyUSD > 0 {
		parts = append(parts, fmt.Sprintf("$%.4g of $%.4g", st.UsedUSD, st.DailyUSD))
	}
	return strings.Join(parts, ", ")
}

// costOutcome is the ledger's outcome of an exec run that ended with err.
func costOutcome(res delivery.Result, err error) string {
	switch {
	case errors.Is(err, delivery.ErrToolCap), errors.Is(err, delivery.ErrTokenCap):
		return cost.Capped
	case err != nil:
		return cost.Failed
	case transcript.IsGhost(res.Said):
		return cost.Ghost
	}
	return cost.Worked
}
