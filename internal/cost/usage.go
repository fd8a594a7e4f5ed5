// Package cost measures what wakeups cost: the tokens a run's client
// reports, their price (the client's own figure, else the config's prices
// table), and a per-day, per-agent ledger of them under stats/, split by
// wakeup source and outcome. A run that reports nothing is "unknown", never
// 0; a model with no price shows its tokens and "price unknown".
package cost

import (
	"maps"
	"math"
	"sort"

	"github.com/ai-heart/ai-heart/internal/config"
)

// Token kinds, as the ledger and watchdog_tokens_total{kind} name them.
const (
	KindInput      = "input"       // prompt tokens not read from a cache
	KindOutput     = "output"      // generated tokens, thinking included
	KindCacheRead  = "cache_read"  // prompt tokens read from a cache
	KindCacheWrite = "cache_write" // prompt tokens written to a cache
)

// Kinds lists the token kinds in display order.
var Kinds = []string{KindInput, KindOutput, KindCacheRead, KindCacheWrite}

// Tokens counts tokens by kind.
type Tokens struct {
	Input      int64 `json:"input"`
	Output     int64 `json:"output"`
	CacheRead  int64 `json:"cache_read"`
	CacheWrite int64 `json:"cache_write"`
}

// Total is every kind together: what budget.daily_tokens and
// per_wakeup_tokens count. It adds as Add does.
func (t Tokens) Total() int64 {
	return addCount(addCount(t.Input, t.Output), addCount(t.CacheRead, t.CacheWrite))
}

// Add returns t plus u, kind by kind, as addCount adds.
func (t Tokens) Add(u Tokens) Tokens {
	return Tokens{addCount(t.Input, u.Input), addCount(t.Output, u.Output), addCount(t.CacheRead, u.CacheRead), addCount(t.CacheWrite, u.CacheWrite)}
}

// addCount adds two counts that may come from the agent's side (a
// transcript, a client's stream): a negative count is no count, and stays
// negative through any sum (so a forged -5,000,000 cannot cancel a real
// figure unseen, and Vet refuses the report it ends in); a sum past the
// largest count stops there instead of wrapping to a negative one.
func addCount(a, b int64) int64 {
	switch {
	case a < 0 || b < 0:
		return min(a, b)
	case a > math.MaxInt64-b:
		return math.MaxInt64
	}
	return a + b
}

// addUSD adds two non-negative amounts; a sum too large for a float64
// stays at the largest one (an infinity could not be saved as JSON).
func addUSD(a, b float64) float64 {
	if s := a + b; !math.IsInf(s, 0) {
		return s
	}
	return math.MaxFloat64
}

// Kind returns the count of one kind.
func (t Tokens) Kind(k string) int64 {
	switch k {
	case KindInput:
		return t.Input
	case KindOutput:
		return t.Output
	case KindCacheRead:
		return t.CacheRead
	case KindCacheWrite:
		return t.CacheWrite
	}
	return 0
}

// Usage is what one run reported: its tokens, by model when the client says,
// and its cost when the client prices it itself.
type Usage struct {
	Tokens Tokens `json:"tokens"`
	// Models splits Tokens by model ("" when the client names none).
	Models map[string]Tokens `json:"models,omitempty"`
	// ReportedUSD is the client's own price of the run (Claude Code's
	// total_cost_usd), taken at its word; nil when it gives none.
	ReportedUSD *float64 `json:"reported_usd,omitempty"`
	// Partial is set when the run ended before its client's final report:
	// the tokens are those seen so far (a lower bound).
	Partial bool `json:"partial,omitempty"`
}

// Clone copies u, its map included.
func (u *Usage) Clone() *Usage {
	if u == nil {
		return nil
	}
	c := *u
	c.Models = maps.Clone(u.Models)
	if u.ReportedUSD != nil {
		v := *u.ReportedUSD
		c.ReportedUSD = &v
	}
	return &c
}

// Price is a run's cost in USD. known is false when neither the client nor
// the prices table prices every model the run used.
func Price(u *Usage, prices map[string]config.Price) (usd float64, known bool) {
	if u == nil {
		return 0, false
	}
	if u.ReportedUSD != nil {
		return *u.ReportedUSD, true
	}
	models := u.Models
	if len(models) == 0 {
		if u.Tokens.Total() == 0 {
			return 0, true // nothing used costs nothing, whatever the model
		}
		return 0, false // tokens with no model: no table can price them
	}
	names := make([]string, 0, len(models))
	for m := range models {
		names = append(names, m)
	}
	sort.Strings(names) // a fixed order: the same sum to the last bit
	for _, m := range names {
		t := models[m]
		if t.Total() == 0 {
			continue
		}
		p, ok := prices[m]
		if !ok || (t.CacheWrite > 0 && p.CacheWrite == nil) {
			return 0, false
		}
		usd += float64(t.Input)*p.Input + float64(t.Output)*p.Output + float64(t.CacheRead)*p.Cached
		if p.CacheWrite != nil {
			usd += float64(t.CacheWrite) * *p.CacheWrite
		}
	}
	return usd / 1e6, true
}

// Unpriced names the models of a run whose tokens no price covers: not in
// prices, or with cache writes and no cache_write price. A run its client
// priced, or that used nothing, has none.
func Unpriced(u *Usage, prices map[string]config.Price) []string {
	if u == nil || u.ReportedUSD != nil {
		return nil
	}
	var out []string
	for m, t := range u.Models {
		p, ok := prices[m]
		if t.Total() > 0 && (!ok || (t.CacheWrite > 0 && p.CacheWrite == nil)) {
			out = append(out, m)
		}
	}
	sort.Strings(out)
	return out
}
