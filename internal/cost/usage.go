// Package cost measures what wakeups cost: the tokens a run's client
// reports, their price (the client's own figure, else the config's prices
// table), and a per-day, per-agent ledger of them under stats/, split by
// wakeup source and outcome. A run that reports nothing is "unknown", never
// 0; a model with no price shows its tokens and "price unknown".
package cost

import (
	"math"
	"sort"

	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/cost/tokens"
)

// Token kinds, as the ledger and watchdog_tokens_total{kind} name them.
const (
	KindInput      = tokens.KindInput
	KindOutput     = tokens.KindOutput
	KindCacheRead  = tokens.KindCacheRead
	KindCacheWrite = tokens.KindCacheWrite
)

// Kinds lists the token kinds in display order.
var Kinds = tokens.Kinds

// Tokens counts tokens by kind; Usage is what one run reported (package
// tokens: the clients' adapters read into them without linking the ledger).
type (
	Tokens = tokens.Tokens
	Usage  = tokens.Usage
)

func addCount(a, b int64) int64 { return tokens.AddCount(a, b) }

// addUSD adds two non-negative amounts; a sum too large for a float64
// stays at the largest one (an infinity could not be saved as JSON).
func addUSD(a, b float64) float64 {
	if s := a + b; !math.IsInf(s, 0) {
		return s
	}
	return math.MaxFloat64
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
