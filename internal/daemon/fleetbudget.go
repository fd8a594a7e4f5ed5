package daemon

import (
	"fmt"
	"sync"
	"time"

	"github.com/ai-heart/ai-heart/internal/alert"
	"github.com/ai-heart/ai-heart/internal/checks"
	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/cost"
)

// fleetBudget is fleet_budget: the day's tokens and money of every agent of
// the config together. Spent, no agent is woken until local midnight; it
// says so once a day at warn_at and once when spent (in memory: a restart
// may say it again).
type fleetBudget struct {
	b      config.Budget
	loc    *time.Location
	agents []*agent
	alerts *alert.Sink

	mu           sync.Mutex
	day          string // the local day the flags below are for
	warned, told bool
}

// use sums today's use of every agent.
func (f *fleetBudget) use(now time.Time) cost.BudgetState {
	st := cost.BudgetState{DailyTokens: f.b.DailyTokens, DailyUSD: f.b.DailyUSD, WarnAt: f.b.WarnAt}
	for _, a := range f.agents {
		u := a.ledger.Budget(now, config.Budget{})
		st.UsedTokens += u.UsedTokens
		st.UsedUSD += u.UsedUSD
	}
	switch {
	case f.b.DailyTokens > 0 && st.UsedTokens >= f.b.DailyTokens:
		st.Spent, st.Reason = true, fmt.Sprintf("the fleet used %d of %d tokens today", st.UsedTokens, f.b.DailyTokens)
	case f.b.DailyUSD > 0 && st.UsedUSD >= f.b.DailyUSD:
		st.Spent, st.Reason = true, fmt.Sprintf("the fleet spent $%.4g of $%.4g today", st.UsedUSD, f.b.DailyUSD)
	}
	return st
}

// spent reports whether the fleet's budget allows no wakeup now.
func (f *fleetBudget) spent(now time.Time) bool { return f.b.On() && f.use(now).Spent }

// check alerts, once per local day each, at warn_at and when spent.
func (f *fleetBudget) check(now time.Time) {
	if !f.b.On() {
		return
	}
	st := f.use(now)
	warn := (st.DailyTokens > 0 && float64(st.UsedTokens) >= st.WarnAt*float64(st.DailyTokens)) ||
		(st.DailyUSD > 0 && st.UsedUSD >= st.WarnAt*st.DailyUSD)
	f.mu.Lock()
	if day := now.In(f.loc).Format(time.DateOnly); day != f.day {
		f.day, f.warned, f.told = day, false, false
	}
	sayWarn := warn && !st.Spent && !f.warned
	saySpent := st.Spent && !f.told
	f.warned = f.warned || warn
	f.told = f.told || st.Spent
	f.mu.Unlock()
	msg := ""
	switch {
	case saySpent:
		msg = "fleet budget spent (" + st.Reason + "): no agent is woken until local midnight; recovery only alerts"
	case sayWarn:
		msg = fmt.Sprintf("%.0f%% of the fleet's budget used today: %d tokens, $%.4g", st.WarnAt*100, st.UsedTokens, st.UsedUSD)
	default:
		return
	}
	if f.alerts != nil {
		f.alerts.Emit(alert.Alert{Time: now, Level: checks.Warning, Agent: "fleet", Check: "fleet_budget", Message: msg})
	}
}
