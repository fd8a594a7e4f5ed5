package main

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/ai-heart/ai-heart/internal/cost"
	"github.com/ai-heart/ai-heart/internal/termsafe"
)

// costRows are the cost lines of `watchdog status`: today, yesterday and the
// last 7 days, ghosts apart (the Heart paper's claim is that they cost next
// to nothing: here the operator checks it), today split by source, and the
// pulse's own cost, which is 0 by construction.
func costRows(row func(k, v string), c *cost.Summary) {
	if c == nil {
		return
	}
	if b := c.Budget; b != nil {
		row("budget", budgetRow(*b))
	}
	for _, p := range []struct {
		name string
		p    cost.Period
	}{{"today", c.Today}, {"yesterday", c.Yesterday}, {"last 7 days", c.Last7Days}} {
		all := p.p.By.Sum("")
		if all.Runs == 0 {
			row("cost "+p.name, "no runs booked (exec runs are; tmux and inbox turns where Claude Code's hooks are wired)")
			continue
		}
		v := fmt.Sprintf("%s: %s", countOf(all.Runs, "run"), cellCost(all))
		var parts []string
		for _, o := range []string{cost.Worked, cost.Failed, cost.Capped} {
			if oc := p.p.By.Sum(o); oc.Runs > 0 {
				parts = append(parts, fmt.Sprintf("%d %s: %s", oc.Runs, o, cellCost(oc)))
			}
		}
		if len(parts) > 0 {
			v += " (" + strings.Join(parts, "; ") + ")"
		}
		row("cost "+p.name, v)
		g := p.p.By.Sum(cost.Ghost)
		row("ghosts "+p.name, fmt.Sprintf("%s %s, %s", countOf(g.Runs, "ghost"), p.name, cellCost(g)))
	}
	if len(c.Today.By) > 0 {
		srcs := make([]string, 0, len(c.Today.By))
		for s := range c.Today.By {
			srcs = append(srcs, s)
		}
		sort.Strings(srcs)
		var parts []string
		for _, s := range srcs {
			parts = append(parts, s+" "+cellCost(cost.Split{s: c.Today.By[s]}.Sum("")))
		}
		row("by source today", strings.Join(parts, "; "))
	}
	if len(c.UnpricedModels) > 0 {
		row("prices", priceHint(c.UnpricedModels))
	}
	row("pulse", "$0 by construction: the pulse reads files and never calls a model")
}

// priceHint names the models no price covers and the config line that
// prices them: the keys are the client's own model names, brackets and all.
func priceHint(models []string) string {
	names := make([]string, len(models))
	entries := make([]string, len(models))
	for i, m := range models {
		q := strconv.Quote(termsafe.Line(m))
		names[i] = termsafe.Line(m)
		entries[i] = q + ": {input: …, output: …}"
	}
	return "price unknown for " + strings.Join(names, ", ") + ": add prices: {" + strings.Join(entries, ", ") +
		"} to the config (USD per million tokens; cached: … and cache_write: … price cache reads and writes)"
}

// costWords are cellCost's words in one language.
type costWords struct {
	none, unknown, tokens, sep, unpriced string
	runs                                 func(n int64) string // "2 runs", "2回"
	unpricedFor, unknownFor              string               // "+ price unknown for ", "usage unknown for "
}

var (
	costEN = costWords{none: "0 tokens, $0", unknown: "usage unknown", tokens: " tokens", sep: ", ", unpriced: "price unknown",
		runs: func(n int64) string { return countOf(n, "run") }, unpricedFor: " + price unknown for ", unknownFor: "usage unknown for "}
	costJA = costWords{none: "0トークン、$0", unknown: "使用量不明", tokens: "トークン", sep: "、", unpriced: "価格不明",
		runs: func(n int64) string { return thousands(n) + "回" }, unpricedFor: "＋価格不明の実行", unknownFor: "使用量不明の実行"}
)

// cellCost says what a cell's runs used: tokens and dollars, and what is not
// known (runs with no usage reported, runs with no price).
func cellCost(c cost.Cell) string { return cellCostIn(costEN, c) }

func cellCostIn(w costWords, c cost.Cell) string {
	if c.Runs == 0 {
		return w.none
	}
	measured := c.Runs - c.Unknown
	if measured == 0 {
		return w.unknown
	}
	v := thousands(c.Tokens.Total()) + w.tokens
	switch priced := measured - c.Unpriced; {
	case priced == 0:
		v += w.sep + w.unpriced
	case c.Unpriced > 0:
		v += w.sep + usd(c.USD) + w.unpricedFor + w.runs(c.Unpriced)
	default:
		v += w.sep + usd(c.USD)
	}
	if c.Unknown > 0 {
		v += w.sep + w.unknownFor + w.runs(c.Unknown)
	}
	return v
}

// usd shows dollars with the digits that matter for small sums: $0.004,
// $1.25, $0.000325.
func usd(v float64) string {
	switch {
	case v == 0:
		return "$0"
	case v >= 1:
		return "$" + strconv.FormatFloat(v, 'f', 2, 64)
	}
	// Three significant digits, never an exponent: $0.000099, not 9.9e-05
	// (nor 0.00009900000000000001).
	prec := max(2-int(math.Floor(math.Log10(v))), 0)
	s := strconv.FormatFloat(v, 'f', prec, 64)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return "$" + s
}

// thousands writes n with comma separators: 2,340.
func thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// countOf is plural with thousands separators.
func countOf(n int64, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return thousands(n) + " " + what + "s"
}

// budgetRow says the daily budget's use, or that it is spent.
func budgetRow(b cost.BudgetState) string {
	var parts []string
	if b.DailyTokens > 0 {
		parts = append(parts, fmt.Sprintf("%s of %s tokens", thousands(b.UsedTokens), thousands(b.DailyTokens)))
	}
	if b.DailyUSD > 0 {
		parts = append(parts, fmt.Sprintf("%s of %s", usd(b.UsedUSD), usd(b.DailyUSD)))
	}
	v := "no daily budget"
	if len(parts) > 0 {
		v = strings.Join(parts, ", ") + fmt.Sprintf(" today (warns at %.0f%%)", b.WarnAt*100)
	}
	if b.PerWakeupTokens > 0 {
		v += fmt.Sprintf("; a run is ended past %s tokens", thousands(b.PerWakeupTokens))
	}
	if b.Spent {
		v = "budget spent (" + b.Reason + "): no wakeups until midnight, recovery only alerts and watches; " + v
	}
	return v
}
