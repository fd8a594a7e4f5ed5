package cost

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/statefile"
)

// newWS is an agent's state folder, where the ledger lives.
func newWS(t *testing.T) string { return t.TempDir() }

func f(v float64) *float64 { return &v }

// TestPrice: the client's price first, else the table by model; a model
// missing from the table, or a cache write with no cache_write price, leaves
// the price unknown; no usage is unknown, never 0.
func TestPrice(t *testing.T) {
	prices := map[string]config.Price{"a": {Input: 2, Output: 8, Cached: 0.5}, "b": {Input: 1, Output: 1, Cached: 1, CacheWrite: f(3)}}
	for _, tc := range []struct {
		name  string
		u     *Usage
		usd   float64
		known bool
	}{
		{"no usage", nil, 0, false},
		{"reported", &Usage{Tokens: Tokens{Input: 5}, Models: map[string]Tokens{"zzz": {Input: 5}}, ReportedUSD: f(0.5)}, 0.5, true},
		{"table", &Usage{Models: map[string]Tokens{"a": {Input: 1_000_000, Output: 500_000, CacheRead: 2_000_000}}}, 2 + 4 + 1, true},
		{"two models", &Usage{Models: map[string]Tokens{"a": {Input: 1_000_000}, "b": {CacheWrite: 1_000_000}}}, 2 + 3, true},
		{"cache write unpriced", &Usage{Models: map[string]Tokens{"a": {CacheWrite: 1}}}, 0, false},
		{"unpriced model", &Usage{Models: map[string]Tokens{"a": {Input: 1}, "c": {Input: 1}}}, 0, false},
		{"tokens, no model", &Usage{Tokens: Tokens{Input: 1}}, 0, false},
	} {
		usd, known := Price(tc.u, prices)
		if known != tc.known || math.Abs(usd-tc.usd) > 1e-12 {
			t.Errorf("%s: Price = %v, %v; want %v, %v", tc.name, usd, known, tc.usd, tc.known)
		}
	}
}

// TestLedgerDaysAndRestart: runs land on their local day (a DST change in
// between), the periods sum them, and a reopened ledger has them all.
func TestLedgerDaysAndRestart(t *testing.T) {
	ws := newWS(t)
	loc, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Skip("no tzdata")
	}
	// 2026-10-25 is 25 hours long in Berlin (CEST -> CET).
	day1 := time.Date(2026, 10, 24, 23, 30, 0, 0, loc)
	day2 := time.Date(2026, 10, 25, 23, 30, 0, 0, loc)
	day3 := time.Date(2026, 10, 26, 0, 30, 0, 0, loc)
	l, err := Open(ws, loc, day1)
	if err != nil {
		t.Fatal(err)
	}
	run := func(in int64, usd float64) Run {
		return Run{Usage: &Usage{Tokens: Tokens{Input: in}}, USD: f(usd)}
	}
	for _, r := range []struct {
		at      time.Time
		src, oc string
		run     Run
	}{
		{day1, "schedule", Ghost, run(10, 0.001)},
		{day2, "schedule", Ghost, run(20, 0.002)},
		{day2, "idle", Worked, run(300, 0.03)},
		{day3, "schedule", Worked, Run{}},                                         // unknown usage
		{day3, "schedule", Worked, Run{Usage: &Usage{Tokens: Tokens{Output: 7}}}}, // unpriced
	} {
		if err := l.Record(r.at, r.src, r.oc, r.run); err != nil {
			t.Fatal(err)
		}
	}
	l2, err := Open(ws, loc, day3)
	if err != nil {
		t.Fatal(err)
	}
	s := l2.Summary(day3)
	if s.Today.From != "2026-10-26" || s.Yesterday.From != "2026-10-25" || s.Last7Days.From != "2026-10-20" {
		t.Fatalf("periods %s, %s, %s", s.Today.From, s.Yesterday.From, s.Last7Days.From)
	}
	if c := s.Today.By.Sum(""); c.Runs != 2 || c.Unknown != 1 || c.Unpriced != 1 || c.Tokens.Total() != 7 || c.USD != 0 {
		t.Fatalf("today %+v", c)
	}
	if c := s.Yesterday.By.Sum(Ghost); c.Runs != 1 || c.Tokens.Input != 20 || c.USD != 0.002 {
		t.Fatalf("yesterday's ghosts %+v", c)
	}
	if c := s.Last7Days.By.Sum(""); c.Runs != 5 || c.Tokens.Total() != 337 || math.Abs(c.USD-0.033) > 1e-12 {
		t.Fatalf("last 7 days %+v", c)
	}
	if c := s.Totals["schedule"]; c.Runs != 4 || c.Tokens.Total() != 37 {
		t.Fatalf("schedule totals %+v", c)
	}
}

// TestLedgerCorrupt: an unreadable ledger starts empty but marks the day
// it was opened as corrupt (spent for the budget), and says so.
func TestLedgerCorrupt(t *testing.T) {
	for name, body := range map[string]string{
		"not json":       "{",
		"negative spend": `{"days":{"2026-11-25":{"by":{"schedule":{"worked":{"runs":1,"tokens":{"input":-5},"usd":0}}}}},"totals":{}}`,
		"bad day":        `{"days":{"yesterday":{"by":{}}},"totals":{}}`,
		"bad outcome":    `{"days":{"2026-11-25":{"by":{"schedule":{"free":{"runs":1}}}}},"totals":{}}`,
	} {
		t.Run(name, func(t *testing.T) {
			ws := newWS(t)
			if err := os.WriteFile(filepath.Join(ws, File), []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
			now := time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)
			l, err := Open(ws, time.UTC, now)
			if !errors.Is(err, statefile.ErrCorrupt) || l == nil {
				t.Fatalf("Open = %v, %v; want a ledger and ErrCorrupt", l, err)
			}
			if !l.Summary(now).TodayCorrupt || !l.Today(now).Corrupt {
				t.Fatal("a corrupt ledger's day is not marked")
			}
			if l.Summary(now.Add(24 * time.Hour)).TodayCorrupt {
				t.Fatal("the next day is marked too")
			}
			// The mark survives the next write and a reopen.
			if err := l.Record(now, "schedule", Worked, Run{}); err != nil {
				t.Fatal(err)
			}
			l2, err := Open(ws, time.UTC, now)
			if err != nil || !l2.Today(now).Corrupt {
				t.Fatalf("reopened: %v, corrupt %v", err, l2.Today(now).Corrupt)
			}
		})
	}
}

// TestBudgetCheck: warn_at and spent are each said once per local day; the
// next day starts afresh.
func TestBudgetCheck(t *testing.T) {
	ws := newWS(t)
	day := time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)
	l, _ := Open(ws, time.UTC, day)
	b := config.Budget{DailyUSD: 1, WarnAt: 0.8}
	spend := func(at time.Time, usd float64) Notice {
		t.Helper()
		if err := l.Record(at, "schedule", Worked, Run{Usage: &Usage{}, USD: f(usd)}); err != nil {
			t.Fatal(err)
		}
		n, err := l.Check(at, b)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	for i, want := range []Notice{{}, {}, {Warn: true}, {Spent: true}, {}} {
		n := spend(day.Add(time.Duration(i)*time.Minute), 0.3+0.001*float64(i))
		if n.Warn != want.Warn || n.Spent != want.Spent {
			t.Fatalf("run %d: notice %+v, want %+v (state %+v)", i+1, n, want, n.State)
		}
	}
	if st := l.Budget(day, b); !st.Spent || st.UsedUSD < 1 {
		t.Fatalf("budget %+v, want spent", st)
	}
	next := day.Add(24 * time.Hour)
	if st := l.Budget(next, b); st.Spent || st.UsedUSD != 0 || st.Warned {
		t.Fatalf("the next day: %+v, want a fresh budget", st)
	}
	if n := spend(next, 0.9); !n.Warn || n.Spent {
		t.Fatalf("the next day: %+v, want the warning again", n)
	}
}

// TestBudgetUnknownPriceStop: with unknown_price: stop a run of a model
// with no price spends a dollar budget (fail closed); by default it counts
// nothing and the budget stays open.
func TestBudgetUnknownPriceStop(t *testing.T) {
	ws := newWS(t)
	day := time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)
	l, _ := Open(ws, time.UTC, day)
	if err := l.Record(day, "schedule", Worked, Run{Usage: &Usage{Tokens: Tokens{Input: 10}}, Unpriced: []string{"mystery-1"}}); err != nil {
		t.Fatal(err)
	}
	keep := config.Budget{DailyUSD: 1, WarnAt: 0.8}
	if st := l.Budget(day, keep); st.Spent {
		t.Fatalf("default: %+v, want an open budget (an unpriced run counts nothing)", st)
	}
	stop := keep
	stop.UnknownPrice = config.UnknownPriceStop
	st := l.Budget(day, stop)
	if !st.Spent || !strings.Contains(st.Reason, "mystery-1") {
		t.Fatalf("unknown_price: stop: %+v, want spent naming the model", st)
	}
	if st := l.Budget(day.Add(24*time.Hour), stop); st.Spent {
		t.Fatalf("the next day: %+v, want a fresh budget", st)
	}
}
