package config

import (
	"fmt"
	"math"
	"sort"
	"strings"
)

// Price is what one model costs, in USD per million tokens. There is no
// built-in list (it would go stale unseen): a model missing from the config's
// prices, and not priced by its client, shows its tokens and "price unknown".
type Price struct {
	Input  float64 `yaml:"input"`  // prompt tokens not read from a cache
	Output float64 `yaml:"output"` // generated tokens, thinking included
	Cached float64 `yaml:"cached"` // prompt tokens read from a cache
	// CacheWrite prices tokens written to a cache (Claude's cache creation);
	// unset, a run that wrote any has no known price.
	CacheWrite *float64 `yaml:"cache_write"`
}

// Budget caps what an agent's wakeups may spend per local day (0 = off).
type Budget struct {
	// DailyTokens is the most tokens (every kind) a day's wakeups may use.
	DailyTokens int64 `yaml:"daily_tokens"`
	// DailyUSD is the most a day's wakeups may cost.
	DailyUSD float64 `yaml:"daily_usd"`
	// WarnAt is the share of a daily budget at which one notice goes out
	// per day (0.8).
	WarnAt float64 `yaml:"warn_at"`
	// PerWakeupTokens ends a stream-json run whose running usage passes it.
	PerWakeupTokens int64 `yaml:"per_wakeup_tokens"`
	// MaxReportTokens and MaxReportUSD bound what one run's report may
	// say (tokens of every kind; the client's own price): a report above
	// either, or with a negative figure, is implausible, an alert, and
	// booked as unknown usage. They are no budget: far above any real run.
	MaxReportTokens int64   `yaml:"max_report_tokens"`
	MaxReportUSD    float64 `yaml:"max_report_usd"`
}

// Defaults of the report limits: a billion tokens, $10,000 for one run.
const (
	DefaultMaxReportTokens = 1_000_000_000
	DefaultMaxReportUSD    = 10_000
)

// On reports whether a daily budget is set.
func (b Budget) On() bool { return b.DailyTokens > 0 || b.DailyUSD > 0 }

func validatePrices(p map[string]Price) error {
	names := make([]string, 0, len(p))
	for m := range p {
		names = append(names, m)
	}
	sort.Strings(names)
	for _, m := range names {
		pr := p[m]
		if strings.TrimSpace(m) == "" {
			return fmt.Errorf("prices: a model name is empty")
		}
		vals := map[string]float64{"input": pr.Input, "output": pr.Output, "cached": pr.Cached}
		if pr.CacheWrite != nil {
			vals["cache_write"] = *pr.CacheWrite
		}
		for k, v := range vals {
			if v < 0 || math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("prices.%s.%s: must be a non-negative number of USD per million tokens, got %v", m, k, v)
			}
		}
	}
	return nil
}

func (b Budget) validate(key string) error {
	switch {
	case b.DailyTokens < 0:
		return fmt.Errorf("%sbudget.daily_tokens: must not be negative (0 = off)", key)
	case b.DailyUSD < 0 || math.IsNaN(b.DailyUSD) || math.IsInf(b.DailyUSD, 0):
		return fmt.Errorf("%sbudget.daily_usd: must be a non-negative amount (0 = off), got %v", key, b.DailyUSD)
	case !(b.WarnAt > 0 && b.WarnAt <= 1):
		return fmt.Errorf("%sbudget.warn_at: must be a share of the budget above 0 and at most 1 (0.8 = warn at 80%%), got %v", key, b.WarnAt)
	case b.PerWakeupTokens < 0:
		return fmt.Errorf("%sbudget.per_wakeup_tokens: must not be negative (0 = off)", key)
	case key == "fleet_" && (b.MaxReportTokens != 0 || b.MaxReportUSD != 0):
		return fmt.Errorf("fleet_budget.max_report_tokens and max_report_usd: a report is one agent's run: set them under budget")
	case key != "fleet_" && b.MaxReportTokens <= 0:
		return fmt.Errorf("%sbudget.max_report_tokens: must be positive (the most tokens one run's report may plausibly say; default %d)", key, DefaultMaxReportTokens)
	case key != "fleet_" && !(b.MaxReportUSD > 0 && !math.IsInf(b.MaxReportUSD, 0)):
		return fmt.Errorf("%sbudget.max_report_usd: must be a positive amount (the most one run's price may plausibly be; default %d)", key, DefaultMaxReportUSD)
	}
	return nil
}
