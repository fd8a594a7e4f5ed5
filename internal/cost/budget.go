package cost

import (
	"fmt"
	"strings"
	"time"

	"github.com/ai-heart/ai-heart/internal/config"
)

// BudgetState is the daily budget as of now, for the state file and status.
type BudgetState struct {
	DailyTokens     int64   `json:"daily_tokens"` // 0 = off
	DailyUSD        float64 `json:"daily_usd"`    // 0 = off
	WarnAt          float64 `json:"warn_at"`
	PerWakeupTokens int64   `json:"per_wakeup_tokens"` // 0 = off
	// UsedTokens and UsedUSD are today's, every source and outcome (runs
	// with unknown usage or no price are not in them).
	UsedTokens int64   `json:"used_tokens"`
	UsedUSD    float64 `json:"used_usd"`
	// Spent: no wakeup from any source until local midnight.
	Spent bool `json:"spent"`
	// Reason says why it is spent.
	Reason string `json:"reason,omitempty"`
	// Warned: the warn_at notice went out today.
	Warned bool `json:"warned,omitempty"`
}

// Budget reads today's use against b.
func (l *Ledger) Budget(now time.Time, b config.Budget) BudgetState {
	d := l.Today(now)
	all := d.By.Sum("")
	st := BudgetState{DailyTokens: b.DailyTokens, DailyUSD: b.DailyUSD, WarnAt: b.WarnAt, PerWakeupTokens: b.PerWakeupTokens,
		UsedTokens: all.Tokens.Total(), UsedUSD: all.USD, Warned: d.Warned}
	if !b.On() {
		return st
	}
	switch {
	case d.Corrupt:
		st.Spent, st.Reason = true, "the cost ledger ("+File+") was unreadable today; a bad file never grants a fresh budget"
	case b.DailyTokens > 0 && st.UsedTokens >= b.DailyTokens:
		st.Spent, st.Reason = true, fmt.Sprintf("%d of %d tokens used today", st.UsedTokens, b.DailyTokens)
	case b.DailyUSD > 0 && st.UsedUSD >= b.DailyUSD:
		st.Spent, st.Reason = true, fmt.Sprintf("$%.4g of $%.4g spent today", st.UsedUSD, b.DailyUSD)
	case b.DailyUSD > 0 && b.UnknownPrice == config.UnknownPriceStop && all.Unpriced > 0:
		st.Spent, st.Reason = true, fmt.Sprintf("%d run(s) today of a model with no price (%s), and budget.unknown_price is stop", all.Unpriced, strings.Join(d.UnpricedModels, ", "))
	}
	return st
}

// warnDue reports whether today's use has reached warn_at of a budget.
func (s BudgetState) warnDue() bool {
	return (s.DailyTokens > 0 && float64(s.UsedTokens) >= s.WarnAt*float64(s.DailyTokens)) ||
		(s.DailyUSD > 0 && s.UsedUSD >= s.WarnAt*s.DailyUSD)
}

// Notice is what a change of the budget asks the caller to say, once a day:
// Warn when warn_at is first reached, Spent when the budget is first spent.
type Notice struct {
	Warn, Spent bool
	State       BudgetState
}

// Check marks today's notices due under b, so each goes out once per local
// day (across restarts too), and returns them.
func (l *Ledger) Check(now time.Time, b config.Budget) (Notice, error) {
	n := Notice{State: l.Budget(now, b)}
	if !b.On() {
		return n, nil
	}
	_, err := l.Mark(now, func(d *Day) bool {
		changed := false
		if n.State.warnDue() && !d.Warned {
			d.Warned, n.Warn, changed = true, true, true
		}
		if n.State.Spent && !d.SpentAlerted {
			d.SpentAlerted, n.Spent, changed = true, true, true
		}
		return changed
	})
	n.State.Warned = n.State.Warned || n.Warn
	return n, err
}
