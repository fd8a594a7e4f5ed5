package config

import (
	"strings"
	"testing"
)

// TestPricesAndBudget: the prices table is the whole config's, copied to
// every agent; budget keys are per agent; bad values are refused by name.
func TestPricesAndBudget(t *testing.T) {
	c, err := Parse([]byte(`
prices:
  m1: {input: 1.25, output: 10, cached: 0.31}
  m2: {input: 3, output: 15, cached: 0.3, cache_write: 3.75}
budget: {daily_tokens: 1000000, daily_usd: 5, warn_at: 0.5}
agent: {delivery: exec, command: [x], output: stream-json}
agents:
  - {workspace: a, budget: {per_wakeup_tokens: 20000}}
  - {workspace: b}
`))
	if err != nil {
		t.Fatal(err)
	}
	for i, a := range c.Agents {
		if a.Prices["m1"].Output != 10 || a.Prices["m2"].CacheWrite == nil || *a.Prices["m2"].CacheWrite != 3.75 || a.Prices["m1"].CacheWrite != nil {
			t.Errorf("agents[%d].Prices = %+v", i, a.Prices)
		}
		if a.Budget.DailyTokens != 1000000 || a.Budget.DailyUSD != 5 || a.Budget.WarnAt != 0.5 ||
			a.Budget.MaxReportTokens != DefaultMaxReportTokens || a.Budget.MaxReportUSD != DefaultMaxReportUSD {
			t.Errorf("agents[%d].Budget = %+v, want the top level's", i, a.Budget)
		}
	}
	if c.Agents[0].Budget.PerWakeupTokens != 20000 || c.Agents[1].Budget.PerWakeupTokens != 0 {
		t.Errorf("per_wakeup_tokens = %d, %d", c.Agents[0].Budget.PerWakeupTokens, c.Agents[1].Budget.PerWakeupTokens)
	}
	for body, want := range map[string]string{
		`prices: {m: {input: -1}}`:                        "prices.m.input: must be a non-negative",
		`budget: {daily_tokens: -1}`:                      "budget.daily_tokens: must not be negative",
		`budget: {daily_usd: -0.5}`:                       "budget.daily_usd: must be a non-negative",
		`budget: {warn_at: 1.5}`:                          "budget.warn_at: must be a share",
		`budget: {warn_at: 0}`:                            "budget.warn_at: must be a share",
		`budget: {per_wakeup_tokens: 10}`:                 "budget.per_wakeup_tokens: needs exec delivery with agent.output: stream-json",
		"agents: [{workspace: a, budget: {warn_at: -1}}]": "agents[0].budget.warn_at",
		`budget: {max_report_tokens: 0}`:                  "budget.max_report_tokens: must be positive",
		`budget: {max_report_usd: -1}`:                    "budget.max_report_usd: must be a positive amount",
		`fleet_budget: {max_report_tokens: 5}`:            "fleet_budget.max_report_tokens and max_report_usd: a report is one agent's run",
	} {
		if _, err := Parse([]byte(body)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Parse(%s) = %v, want an error with %q", body, err, want)
		}
	}
}
