package state

import (
	"strings"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/budget"
	"github.com/ai-heart/ai-heart/internal/cost"
	"github.com/ai-heart/ai-heart/internal/pause"
)

// Blocking names the one reason no wakeup can come, in the gate's terms,
// and nothing once that reason has lapsed by now.
func TestBlocking(t *testing.T) {
	loc := time.FixedZone("JST", 9*3600)
	now := time.Date(2026, 11, 27, 14, 30, 0, 0, loc)
	today, yesterday := "2026-11-27", "2026-11-26"
	midnight := time.Date(2026, 11, 28, 0, 0, 0, 0, loc)
	later, earlier := now.Add(10*time.Minute), now.Add(-time.Second)
	spent := func(day string) *cost.Summary {
		return &cost.Summary{Today: cost.Period{From: day, To: day}, Budget: &cost.BudgetState{DailyTokens: 1000, UsedTokens: 1200, Spent: true, Reason: "1200 of 1000 tokens used today"}}
	}
	capSpent := func(day string) budget.CapState { return budget.CapState{Day: day, Used: 3, Limit: 3} }
	cases := []struct {
		name   string
		st     State
		why    string
		until  *time.Time
		reason string // a part of the reason
	}{
		{name: "nothing in the way", st: State{Cost: &cost.Summary{Today: cost.Period{To: today}, Budget: &cost.BudgetState{DailyTokens: 1000}}, DailyCap: budget.CapState{Day: today, Used: 2, Limit: 3}, Breaker: budget.BreakerState{State: budget.Closed}}},
		{name: "paused for ever", st: State{Pause: &pause.Pause{Reason: "migration"}}, why: BlockedPaused, reason: "`watchdog resume`"},
		{name: "paused for a while", st: State{Pause: &pause.Pause{Until: later}}, why: BlockedPaused, until: &later},
		{name: "a pause that has ended", st: State{Pause: &pause.Pause{Until: earlier}}},
		{name: "recovery gave up", st: State{Recovery: Recovery{GaveUp: true, Reason: "no proof for 40m"}}, why: BlockedGaveUp, reason: "no proof for 40m"},
		{name: "budget spent today", st: State{Cost: spent(today)}, why: BlockedBudget, until: &midnight, reason: "1200 of 1000 tokens"},
		{name: "budget spent yesterday", st: State{Cost: spent(yesterday)}},
		{name: "cap reached today", st: State{DailyCap: capSpent(today)}, why: BlockedCap, until: &midnight, reason: "daily cap of 3"},
		{name: "cap reached yesterday", st: State{DailyCap: capSpent(yesterday)}},
		{name: "no cap", st: State{DailyCap: budget.CapState{Day: today, Used: 40}}},
		{name: "breaker cooling down", st: State{Breaker: budget.BreakerState{State: budget.Open, Failures: 3, OpenUntil: later}}, why: BlockedBreaker, until: &later, reason: "3 delivery failures"},
		{name: "breaker's cooldown over: a probe may go", st: State{Breaker: budget.BreakerState{State: budget.Open, Failures: 3, OpenUntil: earlier}}},
		{name: "held by the service", st: State{Chambers: Chambers{Schedule: ScheduleChamber{HeldUntil: &later}}, Client: &Client{Failure: "rate_limit"}}, why: BlockedService, until: &later, reason: "rate_limit"},
		{name: "a service hold that has ended", st: State{Chambers: Chambers{Schedule: ScheduleChamber{HeldUntil: &earlier}}}},
		{name: "outside active hours", st: State{Chambers: Chambers{Schedule: ScheduleChamber{OutsideActiveHours: true}}}, why: BlockedHours},
		// The pause comes first: resuming is what the person must do.
		{name: "paused with the budget spent", st: State{Pause: &pause.Pause{}, Cost: spent(today)}, why: BlockedPaused},
		// A give-up under the cap: the cap keeps the agent asleep until
		// midnight, whatever ends the give-up ("write a log and wakeups
		// come again" would be false).
		{name: "gave up with the cap reached", st: State{Recovery: Recovery{GaveUp: true}, DailyCap: capSpent(today)}, why: BlockedCap, until: &midnight},
		{name: "budget and cap", st: State{Cost: spent(today), DailyCap: capSpent(today)}, why: BlockedBudget, until: &midnight},
		{name: "cap and breaker", st: State{DailyCap: capSpent(today), Breaker: budget.BreakerState{State: budget.Open, OpenUntil: later}}, why: BlockedCap, until: &midnight},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := Blocking(c.st, now, loc)
			if c.why == "" {
				if b != nil {
					t.Fatalf("blocked %+v, want nothing in the way", *b)
				}
				return
			}
			if b == nil {
				t.Fatalf("not blocked, want %s", c.why)
			}
			if b.Why != c.why || !strings.Contains(b.Reason, c.reason) || b.Word() == "" {
				t.Fatalf("blocked %+v (%q), want %s with %q", *b, b.Word(), c.why, c.reason)
			}
			switch {
			case c.until == nil && b.Until != nil:
				t.Fatalf("until %s, want none", b.Until)
			case c.until != nil && (b.Until == nil || !b.Until.Equal(*c.until)):
				t.Fatalf("until %v, want %s", b.Until, c.until)
			}
		})
	}
}
