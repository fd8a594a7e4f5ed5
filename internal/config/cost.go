package config

import (
	"math"
	"sort"
	"strings"
	"time"
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
	// Enforce is where a spent budget binds: "wakeup" (the default: the
	// next wakeup does not start) or "turn" (the client's pre-tool hook
	// also refuses the tool calls of the turn in flight).
	Enforce string `yaml:"enforce"`
	// UnknownPrice is what a run of a model with no price does to
	// daily_usd: "unknown" (the default: it counts nothing) or "stop" (the
	// budget is spent: fail closed).
	UnknownPrice string `yaml:"unknown_price"`
}

// Where a spent budget binds, and what an unpriced run does to it.
const (
	EnforceWakeup    = "wakeup"
	EnforceTurn      = "turn"
	UnknownPriceKeep = "unknown"
	UnknownPriceStop = "stop"
)

// BindsTurn reports whether a spent budget refuses the turn's tool calls.
func (b Budget) BindsTurn() bool { return b.Enforce == EnforceTurn }

// RateLimit is what a client's own rate-limit report does to wakeups.
type RateLimit struct {
	// HoldUntilReset holds wakeups until the limit's reset when the client
	// says it is used up (true); false keeps only the cooldown holds.
	HoldUntilReset bool `yaml:"hold_until_reset"`
	// SpreadAt is the share of a limit past which the schedule's wakeups
	// are spread out until its reset (0.8; 0 = off).
	SpreadAt float64 `yaml:"spread_at"`
	// SpreadMax is the widest a spread makes the gap between two of the
	// schedule's wakeups (1h): one status line cannot thin them to one
	// per days.
	SpreadMax Duration `yaml:"spread_max"`
	// ClientResumes: where the client continues by itself when a usage
	// limit resets (Claude Code 2.1.234 on, interactive in tmux, its
	// autoContinueAtUsageLimit), the watchdog does not wake the agent at
	// the reset but checks that a turn starts within ResumeMargin after
	// it, and wakes it once if none does (true; false: it wakes it at the
	// reset, as for an older client).
	ClientResumes bool `yaml:"client_resumes"`
	// ResumeMargin is how long after the reset the client has to start a
	// turn (5m: its own jitter, and clocks that disagree by minutes).
	ResumeMargin Duration `yaml:"resume_margin"`
}

func (r RateLimit) check(key string, p *problems) {
	if !(r.SpreadAt >= 0 && r.SpreadAt < 1) {
		p.addf(key+"rate_limit.spread_at", "must be a share of the limit from 0 (off) to below 1 (0.8 = spread past 80%%), got %v", r.SpreadAt)
	}
	if r.SpreadMax < Duration(time.Minute) || r.SpreadMax > Duration(24*time.Hour) {
		p.addf(key+"rate_limit.spread_max", "must be from 1m to 24h (the widest gap a spread makes between two scheduled wakeups), got %s", r.SpreadMax.D())
	}
	if r.ResumeMargin < 0 || r.ResumeMargin > Duration(time.Hour) {
		p.addf(key+"rate_limit.resume_margin", "must be from 0 to 1h (how long after a reset the client has to continue by itself), got %s", r.ResumeMargin.D())
	}
}

// Defaults of the report limits: a billion tokens, $10,000 for one run.
const (
	DefaultMaxReportTokens = 1_000_000_000
	DefaultMaxReportUSD    = 10_000
)

// On reports whether a daily budget is set.
func (b Budget) On() bool { return b.DailyTokens > 0 || b.DailyUSD > 0 }

func checkPrices(prices map[string]Price, p *problems) {
	names := make([]string, 0, len(prices))
	for m := range prices {
		names = append(names, m)
	}
	sort.Strings(names)
	for _, m := range names {
		pr := prices[m]
		if strings.TrimSpace(m) == "" {
			p.addf("prices", "a model name is empty")
			continue
		}
		vals := map[string]float64{"input": pr.Input, "output": pr.Output, "cached": pr.Cached}
		if pr.CacheWrite != nil {
			vals["cache_write"] = *pr.CacheWrite
		}
		for _, k := range []string{"input", "output", "cached", "cache_write"} {
			if v, ok := vals[k]; ok && (v < 0 || math.IsNaN(v) || math.IsInf(v, 0)) {
				p.addf("prices."+m+"."+k, "must be a non-negative number of USD per million tokens, got %v", v)
			}
		}
	}
}

func (b Budget) check(key string, p *problems) {
	bad := func(field, format string, args ...any) { p.addf(key+"budget."+field, format, args...) }
	if b.DailyTokens < 0 {
		bad("daily_tokens", "must not be negative (0 = off)")
	}
	if b.DailyUSD < 0 || math.IsNaN(b.DailyUSD) || math.IsInf(b.DailyUSD, 0) {
		bad("daily_usd", "must be a non-negative amount (0 = off), got %v", b.DailyUSD)
	}
	if !(b.WarnAt > 0 && b.WarnAt <= 1) {
		bad("warn_at", "must be a share of the budget above 0 and at most 1 (0.8 = warn at 80%%), got %v", b.WarnAt)
	}
	if b.PerWakeupTokens < 0 {
		bad("per_wakeup_tokens", "must not be negative (0 = off)")
	}
	if b.Enforce != "" && b.Enforce != EnforceWakeup && b.Enforce != EnforceTurn {
		bad("enforce", "must be %q (the next wakeup does not start) or %q (the turn's tool calls are refused too), got %q", EnforceWakeup, EnforceTurn, b.Enforce)
	}
	if b.UnknownPrice != "" && b.UnknownPrice != UnknownPriceKeep && b.UnknownPrice != UnknownPriceStop {
		bad("unknown_price", "must be %q (an unpriced run counts nothing) or %q (it spends the budget), got %q", UnknownPriceKeep, UnknownPriceStop, b.UnknownPrice)
	}
	if key == "fleet_" {
		if b.Enforce != "" || b.UnknownPrice != "" {
			p.addf("fleet_budget.enforce and unknown_price", "set them under budget: they are each agent's")
		}
		if b.MaxReportTokens != 0 || b.MaxReportUSD != 0 {
			p.addf("fleet_budget.max_report_tokens and max_report_usd", "a report is one agent's run: set them under budget")
		}
		return
	}
	if b.MaxReportTokens <= 0 {
		bad("max_report_tokens", "must be positive (the most tokens one run's report may plausibly say; default %d)", DefaultMaxReportTokens)
	}
	if !(b.MaxReportUSD > 0 && !math.IsInf(b.MaxReportUSD, 0)) {
		bad("max_report_usd", "must be a positive amount (the most one run's price may plausibly be; default %d)", DefaultMaxReportUSD)
	}
}

// Progress is what the agent's work is judged by: the folders whose
// changes are its progress (besides the workspace's artifacts and
// projects), and how many answered wakeups in a row may change nothing in
// them before no_progress warns (twice that: an error; 0 = off).
type Progress struct {
	Paths []string `yaml:"paths"`
	After int      `yaml:"after"`
}

func (g Progress) check(key string, p *problems) {
	if g.After < 0 || g.After > 1000 {
		p.addf(key+"progress.after", "must be from 0 (off) to 1000 answered wakeups, got %d", g.After)
	}
	for _, d := range g.Paths {
		if d == "" {
			p.addf(key+"progress.paths", "an empty path")
		}
	}
}
