package cost

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/config"
)

// TestVetRefusesImplausibleReports: a report with a negative count (as a
// forged transcript line or stream event says it), one that sums past the
// largest count, one above budget.max_report_tokens, or a negative or
// infinite price of the client's own, is refused and booked as unknown:
// never a credit, never a wrap. A plausible report is measured as before.
func TestVetRefusesImplausibleReports(t *testing.T) {
	b := config.Defaults().Budget
	prices := map[string]config.Price{"m": {Input: 3, Output: 15}}
	big := Tokens{Input: math.MaxInt64}
	for _, tc := range []struct {
		name string
		u    *Usage
	}{
		{"negative input", &Usage{Tokens: Tokens{Input: -5_000_000}, Models: map[string]Tokens{"m": {Input: -5_000_000}}}},
		{"a negative model only", &Usage{Tokens: Tokens{Input: 10}, Models: map[string]Tokens{"m": {Input: 10, Output: -1}}}},
		{"a negative cancelled by a positive", &Usage{Tokens: Tokens{Input: 5_000_000}.Add(Tokens{Input: -5_000_000})}},
		{"2^63-1 tokens", &Usage{Tokens: big, Models: map[string]Tokens{"m": big}}},
		{"2^63-1 plus one", &Usage{Tokens: big.Add(Tokens{Input: 1})}},
		{"kinds summing past 2^63", &Usage{Tokens: Tokens{Input: math.MaxInt64 / 2, Output: math.MaxInt64 / 2, CacheRead: 10}}},
		{"above max_report_tokens", &Usage{Tokens: Tokens{Output: b.MaxReportTokens + 1}}},
		{"a negative client price", &Usage{Tokens: Tokens{Input: 10}, ReportedUSD: f(-15)}},
		{"an infinite client price", &Usage{Tokens: Tokens{Input: 10}, ReportedUSD: f(math.Inf(1))}},
		{"a client price above max_report_usd", &Usage{Tokens: Tokens{Input: 10}, ReportedUSD: f(b.MaxReportUSD * 2)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Vet(tc.u, prices, b)
			if !errors.Is(err, ErrImplausible) {
				t.Fatalf("err = %v, want implausible", err)
			}
			if r.Usage != nil || r.USD != nil {
				t.Fatalf("run %+v, want unknown usage", r)
			}
		})
	}
	r, err := Vet(&Usage{Tokens: Tokens{Input: 1e6, Output: 1e6}, Models: map[string]Tokens{"m": {Input: 1e6, Output: 1e6}}}, prices, b)
	if err != nil || r.USD == nil || *r.USD != 18 {
		t.Fatalf("a plausible report: %+v, %v; want $18", r, err)
	}
	if r, err := Vet(nil, prices, b); err != nil || r.Usage != nil {
		t.Fatalf("no report: %+v, %v; want unknown, no error", r, err)
	}
}

// TestLedgerNeverWraps: a ledger file holding 2^63-1 tokens and the
// largest amount (not negative, so it loads) stays there as runs are
// booked on it and across a restart: the day stays spent, and no total
// turns negative or infinite.
func TestLedgerNeverWraps(t *testing.T) {
	ws := newWS(t)
	now := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	day := now.Format(time.DateOnly)
	body := fmt.Sprintf(`{"days":{%q:{"by":{"schedule":{"worked":{"runs":%d,"tokens":{"input":%d,"output":%d},"usd":%g}}}}},
"totals":{"schedule":{"runs":%d,"tokens":{"input":%d,"output":%d},"usd":%g}}}`,
		day, int64(math.MaxInt64), int64(math.MaxInt64), int64(math.MaxInt64), math.MaxFloat64,
		int64(math.MaxInt64), int64(math.MaxInt64), int64(math.MaxInt64), math.MaxFloat64)
	if err := os.WriteFile(filepath.Join(ws, File), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	budget := config.Budget{DailyTokens: 100_000, DailyUSD: 5, WarnAt: 0.8}
	for restart := range 2 {
		l, err := Open(ws, time.UTC, now)
		if err != nil {
			t.Fatal(err)
		}
		usd := 0.5
		if err := l.Record(now, "schedule", Worked, Run{Usage: &Usage{Tokens: Tokens{Input: 100, Output: 70}}, USD: &usd}); err != nil {
			t.Fatalf("restart %d: %v", restart, err)
		}
		st := l.Budget(now, budget)
		if st.UsedTokens != math.MaxInt64 || st.UsedUSD != math.MaxFloat64 || !st.Spent {
			t.Fatalf("restart %d: budget %+v, want 2^63-1 tokens, the largest amount, spent", restart, st)
		}
		tot := l.Summary(now).Totals["schedule"]
		if tot.bad() || tot.Runs != math.MaxInt64 || tot.Tokens.Input != math.MaxInt64 || tot.USD != math.MaxFloat64 {
			t.Fatalf("restart %d: totals %+v wrapped", restart, tot)
		}
	}
}
