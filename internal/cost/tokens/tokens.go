// Package tokens is what a client says a run used: tokens by kind and
// model, and its own price. The clients' adapters (internal/clients) read
// their output into it; package cost, which names these types too, prices
// and books them. It is the standard library alone, so heart-hook can link
// the adapters without the ledger.
package tokens

import (
	"maps"
	"math"
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
	return AddCount(AddCount(t.Input, t.Output), AddCount(t.CacheRead, t.CacheWrite))
}

// Add returns t plus u, kind by kind, as AddCount adds.
func (t Tokens) Add(u Tokens) Tokens {
	return Tokens{AddCount(t.Input, u.Input), AddCount(t.Output, u.Output), AddCount(t.CacheRead, u.CacheRead), AddCount(t.CacheWrite, u.CacheWrite)}
}

// AddCount adds two counts that may come from the agent's side (a
// transcript, a client's stream): a negative count is no count, and stays
// negative through any sum (so a forged -5,000,000 cannot cancel a real
// figure unseen, and Vet refuses the report it ends in); a sum past the
// largest count stops there instead of wrapping to a negative one.
func AddCount(a, b int64) int64 {
	switch {
	case a < 0 || b < 0:
		return min(a, b)
	case a > math.MaxInt64-b:
		return math.MaxInt64
	}
	return a + b
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
