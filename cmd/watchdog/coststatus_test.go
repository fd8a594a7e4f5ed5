package main

import (
	"strings"
	"testing"

	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/cost"
)

// TestCostRows: status shows ghosts' cost beside their count, says "price
// unknown" for an unpriced model and "usage unknown" for runs that reported
// none, and the pulse's cost as 0 by construction.
func TestCostRows(t *testing.T) {
	ghosts := cost.Cell{Runs: 48, Tokens: cost.Tokens{Input: 2000, Output: 340}, USD: 0.004}
	worked := cost.Cell{Runs: 2, Tokens: cost.Tokens{Input: 10000, CacheRead: 5000, Output: 1200}, Unpriced: 2}
	failed := cost.Cell{Runs: 1, Unknown: 1}
	s := &cost.Summary{
		Today: cost.Period{By: cost.Split{
			"schedule": {cost.Ghost: ghosts, cost.Worked: worked},
			"recovery": {cost.Failed: failed},
		}},
		Yesterday: cost.Period{By: cost.Split{}},
		Last7Days: cost.Period{By: cost.Split{"schedule": {cost.Ghost: ghosts}}},
	}
	var b strings.Builder
	costRows(func(k, v string) { b.WriteString(k + ": " + v + "\n") }, s)
	out := b.String()
	for _, want := range []string{
		"ghosts today: 48 ghosts today, 2,340 tokens, $0.004\n",
		"cost today: 51 runs: 18,540 tokens, $0.004 + price unknown for 2 runs, usage unknown for 1 run (2 worked: 16,200 tokens, price unknown; 1 failed: usage unknown)\n",
		"cost yesterday: no runs booked",
		"ghosts last 7 days: 48 ghosts last 7 days, 2,340 tokens, $0.004\n",
		"by source today: recovery usage unknown; schedule 18,540 tokens, $0.004 + price unknown for 2 runs\n",
		"pulse: $0 by construction",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("status lacks %q:\n%s", want, out)
		}
	}
}

func TestUSD(t *testing.T) {
	for v, want := range map[float64]string{0: "$0", 0.004: "$0.004", 0.000325: "$0.000325", 1.256: "$1.26", 0.0158: "$0.0158", 0.12345: "$0.123", 3 * 0.000033: "$0.000099", 0.1: "$0.1", 0.00000123456: "$0.00000123"} {
		if got := usd(v); got != want {
			t.Errorf("usd(%v) = %q, want %q", v, got, want)
		}
	}
}

func TestBudgetRow(t *testing.T) {
	for _, tc := range []struct {
		b    cost.BudgetState
		want string
	}{
		{cost.BudgetState{WarnAt: 0.8}, "no daily budget"},
		{cost.BudgetState{DailyTokens: 100000, DailyUSD: 2, WarnAt: 0.8, UsedTokens: 2340, UsedUSD: 0.004, PerWakeupTokens: 20000},
			"2,340 of 100,000 tokens, $0.004 of $2.00 today (warns at 80%); a run is ended past 20,000 tokens"},
		{cost.BudgetState{DailyTokens: 1000, WarnAt: 0.5, UsedTokens: 1200, Spent: true, Reason: "1200 of 1000 tokens used today"},
			"budget spent (1200 of 1000 tokens used today): no wakeups until midnight, recovery only alerts and watches; 1,200 of 1,000 tokens today (warns at 50%)"},
	} {
		if got := budgetRow(tc.b); got != tc.want {
			t.Errorf("budgetRow(%+v) =\n%q, want\n%q", tc.b, got, tc.want)
		}
	}
}

// TestPriceHintIsTheConfigLine: "price unknown" names the model key and the
// config line that prices it; that line, its "…" filled in, is a config the
// loader takes, and it prices the model (brackets and all).
func TestPriceHintIsTheConfigLine(t *testing.T) {
	const model = "claude-opus-4-8[1m]"
	var b strings.Builder
	costRows(func(k, v string) { b.WriteString(k + ": " + v + "\n") }, &cost.Summary{UnpricedModels: []string{model, "gemini-3-pro"}})
	out := b.String()
	want := `prices: price unknown for claude-opus-4-8[1m], gemini-3-pro: add prices: {"claude-opus-4-8[1m]": {input: …, output: …}, "gemini-3-pro": {input: …, output: …}} to the config`
	if !strings.Contains(out, want) {
		t.Fatalf("status lacks %q:\n%s", want, out)
	}
	_, line, _ := strings.Cut(out, "add ")
	line, _, _ = strings.Cut(line, " to the config")
	cfg, err := config.Parse([]byte(strings.ReplaceAll(line, "…", "3") + "\n"))
	if err != nil {
		t.Fatalf("the hinted line %q does not load: %v", line, err)
	}
	u := &cost.Usage{Tokens: cost.Tokens{Input: 1e6}, Models: map[string]cost.Tokens{model: {Input: 1e6}}}
	if usd, known := cost.Price(u, cfg.Prices); !known || usd != 3 {
		t.Fatalf("priced by the hinted line: $%v known %v, want $3", usd, known)
	}
	// A model name from the agent's client cannot steer the terminal.
	b.Reset()
	costRows(func(k, v string) { b.WriteString(k + ": " + v + "\n") }, &cost.Summary{UnpricedModels: []string{"m\x1b[2J"}})
	if strings.Contains(b.String(), "\x1b") {
		t.Fatalf("an escape reached the terminal: %q", b.String())
	}
}
