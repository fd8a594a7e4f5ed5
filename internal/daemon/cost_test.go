package daemon

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/cost"
	"github.com/ai-heart/ai-heart/internal/state"
	"github.com/ai-heart/ai-heart/internal/testutil"
	"github.com/ai-heart/ai-heart/internal/transcript"
)

func buildFakeAgent(t *testing.T) string {
	t.Helper()
	agent := filepath.Join(t.TempDir(), "fakeagent")
	if err := testutil.Build("../delivery/testdata/fakeagent", agent); err != nil {
		t.Fatal(err)
	}
	return agent
}

// streamAgent is an exec stream-json agent run by the fake agent: each run
// makes calls tool calls and replies reply, reporting known usage.
func streamAgent(agent, format, calls, reply string, extra ...string) config.Delivery {
	return config.Delivery{Delivery: config.DeliveryExec, Command: append([]string{agent, "stream", format, calls, reply}, extra...),
		Timeout: config.Duration(30 * time.Second), Output: config.OutputStreamJSON}
}

// TestCostPerWakeupAndRestart: each ghost run of the fake agent reports 100
// input, 50 cache read and 20 output tokens for model m1; priced by the
// table at $1, $10 and $0.5 per million, it costs $0.000325. The ledger sums
// runs exactly, ghosts apart, and a restart carries the totals on.
func TestCostPerWakeupAndRestart(t *testing.T) {
	agent := buildFakeAgent(t)
	cfg := testConfig(t)
	cfg.Schedule.Every = config.Duration(200 * time.Millisecond)
	cfg.Agent = streamAgent(agent, "gemini", "0", "[IDLE]", "model=m1")
	prices := map[string]config.Price{"m1": {Input: 1, Output: 10, Cached: 0.5}}
	cfg.Prices, cfg.AgentConfig.Prices = prices, prices
	const perRun, perRunUSD = 170, 0.000325

	check := func(c cost.Cell, what string) {
		t.Helper()
		if c.Runs == 0 || c.Unknown != 0 || c.Unpriced != 0 {
			t.Fatalf("%s: %+v, want priced runs", what, c)
		}
		want := cost.Tokens{Input: 100 * c.Runs, CacheRead: 50 * c.Runs, Output: 20 * c.Runs}
		if c.Tokens != want || c.Tokens.Total() != perRun*c.Runs {
			t.Fatalf("%s: tokens %+v for %d runs, want %+v", what, c.Tokens, c.Runs, want)
		}
		if math.Abs(c.USD-perRunUSD*float64(c.Runs)) > 1e-12 {
			t.Fatalf("%s: $%v for %d runs, want $%v", what, c.USD, c.Runs, perRunUSD*float64(c.Runs))
		}
	}

	h := start(t, cfg, nil)
	h.waitFor("three ghost runs", 15*time.Second, func() bool { s, err := h.tryState(); return err == nil && s.Counters.Ghosts >= 3 })
	h.stop()
	st := h.state()
	if st.Cost == nil {
		t.Fatal("state has no cost")
	}
	first := st.Cost.Totals["schedule"]
	check(first, "totals after the first run")
	if first.Runs != st.Counters.Ghosts {
		t.Fatalf("ledger runs %d, ghosts counted %d", first.Runs, st.Counters.Ghosts)
	}
	if g := st.Cost.Today.By.Sum(cost.Ghost); g != first {
		t.Fatalf("today's ghosts %+v, totals %+v", g, first)
	}
	if w := st.Cost.Today.By.Sum(cost.Worked); w.Runs != 0 {
		t.Fatalf("worked %+v, want none", w)
	}

	// A restart: the counters go on from the file.
	h2 := start(t, cfg, nil)
	h2.waitFor("three more ghost runs", 15*time.Second, func() bool { s, err := h2.tryState(); return err == nil && s.Counters.Ghosts >= 3 })
	h2.stop()
	st2 := h2.state()
	tot := st2.Cost.Totals["schedule"]
	check(tot, "totals after the restart")
	if tot.Runs != first.Runs+st2.Counters.Ghosts {
		t.Fatalf("totals after the restart: %d runs, want %d + %d", tot.Runs, first.Runs, st2.Counters.Ghosts)
	}
	check(st2.Cost.Last7Days.By.Sum(""), "last 7 days")
}

// TestCostUnpricedAndTranscript: a worked run of a model the table does not
// price keeps its tokens, shows no cost (null, not 0) and counts as
// unpriced; a client's own price is taken at its word.
func TestCostUnpricedAndTranscript(t *testing.T) {
	agent := buildFakeAgent(t)
	for _, tc := range []struct {
		name  string
		extra []string
		usd   *float64
	}{
		{"unpriced", []string{"model=m2"}, nil},
		{"client's price", []string{"model=m2", "cost=0.25"}, ptrF(0.25)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := testConfig(t)
			cfg.Schedule.Every = config.Duration(200 * time.Millisecond)
			cfg.Agent = streamAgent(agent, "claude", "2", "did things", tc.extra...)
			cfg.AgentConfig.Prices = map[string]config.Price{"m1": {Input: 1, Output: 1, Cached: 1}}
			h := start(t, cfg, nil)
			h.waitFor("two runs", 15*time.Second, func() bool { s, err := h.tryState(); return err == nil && s.Counters.Delivered >= 2 })
			h.stop()
			st := h.state()
			w := st.Cost.Today.By["schedule"][cost.Worked]
			const perRun = 300 + 150 + 40 // 2 calls: 3 turns of 100 + 50, outputs 10 + 10 + 20
			if w.Runs < 2 || w.Tokens.Total() != perRun*w.Runs {
				t.Fatalf("worked: %+v, want %d tokens a run", w, perRun)
			}
			if tc.usd == nil && (w.Unpriced != w.Runs || w.USD != 0) {
				t.Fatalf("worked: %+v, want every run unpriced", w)
			}
			if tc.usd != nil && (w.Unpriced != 0 || math.Abs(w.USD-*tc.usd*float64(w.Runs)) > 1e-12) {
				t.Fatalf("worked: %+v, want $%v a run", w, *tc.usd)
			}
			// The model to price is named, for status's "price unknown for m2".
			if got := fmt.Sprint(st.Cost.UnpricedModels); (tc.usd == nil && got != "[m2]") || (tc.usd != nil && got != "[]") {
				t.Fatalf("unpriced models %s", got)
			}
			files, _ := filepath.Glob(filepath.Join(cfg.Workspace, "stats", "wakeups", "*.jsonl"))
			if len(files) != 1 {
				t.Fatalf("transcripts %v", files)
			}
			f, _ := os.Open(files[0])
			defer f.Close()
			sc := bufio.NewScanner(f)
			sc.Buffer(nil, 1<<20)
			for sc.Scan() {
				var raw map[string]json.RawMessage
				var e transcript.Entry
				if json.Unmarshal(sc.Bytes(), &raw) != nil || json.Unmarshal(sc.Bytes(), &e) != nil {
					t.Fatalf("transcript line %s", sc.Text())
				}
				if e.Usage == nil || e.Usage.Tokens.Total() != perRun {
					t.Fatalf("transcript usage %+v, want %d tokens", e.Usage, perRun)
				}
				if tc.usd == nil && (string(raw["cost_usd"]) != "null" || string(raw["unpriced_models"]) != `["m2"]`) {
					t.Fatalf("transcript cost_usd %s, unpriced_models %s: want null (price unknown) for m2", raw["cost_usd"], raw["unpriced_models"])
				}
				if tc.usd != nil && (e.USD == nil || *e.USD != *tc.usd) {
					t.Fatalf("transcript cost %v, want %v", e.USD, *tc.usd)
				}
			}
		})
	}
}

// TestCostUnknownUsage: a text run reports nothing: booked as unknown, no
// tokens, never 0 dollars counted as known.
func TestCostUnknownUsage(t *testing.T) {
	agent := buildFakeAgent(t)
	cfg := testConfig(t)
	cfg.Schedule.Every = config.Duration(200 * time.Millisecond)
	cfg.Agent = config.Delivery{Delivery: config.DeliveryExec, Command: []string{agent, "reply", "hello"}, Timeout: config.Duration(30 * time.Second)}
	h := start(t, cfg, nil)
	h.waitFor("two runs", 15*time.Second, func() bool { s, err := h.tryState(); return err == nil && s.Counters.Delivered >= 2 })
	h.stop()
	w := h.state().Cost.Today.By["schedule"][cost.Worked]
	if w.Runs < 2 || w.Unknown != w.Runs || w.Tokens.Total() != 0 || w.Unpriced != 0 {
		t.Fatalf("worked: %+v, want every run unknown", w)
	}
}

func ptrF(f float64) *float64 { return &f }

// alertsWith counts the alerts of check whose message contains part.
func alertsWith(t *testing.T, path, check, part string) int {
	n := 0
	for _, a := range alertsOf(t, path) {
		if a["check"] == check && strings.Contains(fmt.Sprint(a["message"]), part) {
			n++
		}
	}
	return n
}

// TestBudgetStopsTheNextWakeup: runs of 170 tokens against a daily budget of
// 500 tokens, warning at half: the warning goes out once after the second
// run, the third run crosses the budget and finishes, and no wakeup starts
// after it, also after a restart; each notice goes out once.
func TestBudgetStopsTheNextWakeup(t *testing.T) {
	agent := buildFakeAgent(t)
	cfg := testConfig(t)
	cfg.Schedule.Every = config.Duration(150 * time.Millisecond)
	cfg.Agent = streamAgent(agent, "gemini", "0", "[IDLE]", "model=m1")
	cfg.Budget = config.Budget{DailyTokens: 500, WarnAt: 0.5}
	h := start(t, cfg, nil)
	h.waitFor("two wakeups dropped by the budget", 15*time.Second, func() bool {
		s, err := h.tryState()
		return err == nil && s.Counters.DroppedBudget >= 2
	})
	h.stop()
	st := h.state()
	today := st.Cost.Today.By.Sum("")
	if st.Counters.Ghosts != 3 || today.Runs != 3 || today.Tokens.Total() != 510 {
		t.Fatalf("ghosts %d, today %+v: want exactly 3 runs of 170 tokens", st.Counters.Ghosts, today)
	}
	if b := st.Cost.Budget; b == nil || !b.Spent || b.UsedTokens != 510 || !b.Warned {
		t.Fatalf("budget %+v, want spent at 510 tokens, warned", st.Cost.Budget)
	}
	if by := st.Counters.BySource["schedule"]; by[state.OutcomeDroppedBudget] != st.Counters.DroppedBudget || st.Counters.Dropped != 0 {
		t.Fatalf("counters %+v", st.Counters)
	}
	// The state says why no wakeup comes, and announces none that would
	// be dropped.
	if sc := st.Chambers.Schedule; sc.Blocked == nil || sc.Blocked.Why != state.BlockedBudget || sc.Blocked.Until == nil || sc.NextWakeup != nil {
		t.Fatalf("schedule chamber %+v (blocked %+v), want blocked by the budget until midnight and no next wakeup", sc, sc.Blocked)
	}
	if n := alertsWith(t, h.alerts, "budget", "50% of today's budget used: 340 of 500 tokens"); n != 1 {
		t.Fatalf("%d warn_at alerts, want 1: %v", n, alertsOf(t, h.alerts))
	}
	if n := alertsWith(t, h.alerts, "budget", "daily budget spent (510 of 500 tokens used today)"); n != 1 {
		t.Fatalf("%d budget spent alerts, want 1: %v", n, alertsOf(t, h.alerts))
	}

	h2 := start(t, cfg, nil)
	h2.waitFor("a wakeup dropped after the restart", 15*time.Second, func() bool {
		s, err := h2.tryState()
		return err == nil && s.Counters.DroppedBudget >= 2
	})
	h2.stop()
	st2 := h2.state()
	if st2.Counters.Ghosts != 0 || st2.Cost.Today.By.Sum("").Runs != 3 {
		t.Fatalf("after the restart: ghosts %d, runs today %d; want no new run", st2.Counters.Ghosts, st2.Cost.Today.By.Sum("").Runs)
	}
	if n := alertsWith(t, h2.alerts, "budget", ""); n != 0 {
		t.Fatalf("after the restart: %d budget alerts, want none (once a day)", n)
	}
}

// TestPerWakeupTokensEndsARun: a Claude Code run that calls tools for ever
// is ended once its running usage passes budget.per_wakeup_tokens, counted
// token_capped and booked as capped with the tokens it used.
func TestPerWakeupTokensEndsARun(t *testing.T) {
	agent := buildFakeAgent(t)
	cfg := testConfig(t)
	cfg.Schedule.Every = config.Duration(300 * time.Millisecond)
	cfg.Agent = streamAgent(agent, "claude", "-1", "never")
	cfg.Budget.PerWakeupTokens = 1000
	h := start(t, cfg, nil)
	h.waitFor("two token-capped runs", 20*time.Second, func() bool {
		s, err := h.tryState()
		return err == nil && s.Counters.TokenCapped >= 2
	})
	h.stop()
	st := h.state()
	c := st.Cost.Today.By["schedule"][cost.Capped]
	// 160 tokens a call: the cap is passed at 1,120; a run may be read a
	// call or two further before its process group is gone.
	if c.Runs != st.Counters.TokenCapped || c.Tokens.Total() < 1120*c.Runs || c.Tokens.Total() > 1600*c.Runs {
		t.Fatalf("capped %+v for %d token-capped runs", c, st.Counters.TokenCapped)
	}
	if files, _ := filepath.Glob(filepath.Join(cfg.Workspace, "stats", "wakeups", "*.jsonl")); len(files) != 0 {
		t.Fatalf("capped runs left transcripts %v", files)
	}
}

// TestCorruptLedgerSpendsTheDay: an unreadable cost ledger never hands back
// a budget: the day counts as spent, so
// recovery waits for it and says so, and the agent is not woken.
func TestCorruptLedgerSpendsTheDay(t *testing.T) {
	agent := buildFakeAgent(t)
	cfg := testConfig(t)
	cfg.Agent = streamAgent(agent, "gemini", "0", "[IDLE]")
	cfg.Budget = config.Budget{DailyUSD: 5, WarnAt: 0.8}
	dir := cfg.AgentConfigs()[0].StateDir()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, cost.File), []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	h := start(t, cfg, nil)
	h.waitFor("recovery held by the budget", 20*time.Second, func() bool {
		s, err := h.tryState()
		return err == nil && s.Recovery.Active && s.Recovery.Held == state.BlockedBudget
	})
	h.stop()
	st := h.state()
	if b := st.Cost.Budget; b == nil || !b.Spent || !strings.Contains(b.Reason, "unreadable") {
		t.Fatalf("budget %+v, want spent: the ledger was unreadable", st.Cost.Budget)
	}
	if st.Cost.Today.By.Sum("").Runs != 0 || st.Counters.Delivered+st.Counters.Ghosts+st.Counters.DeliveryFailures != 0 {
		t.Fatalf("the agent was run: %+v", st.Counters)
	}
	if alertsWith(t, h.alerts, "recovery", "but today's budget is spent, so no attempt can reach the agent") != 1 {
		t.Fatalf("no recovery alert saying the budget holds it: %v", alertsOf(t, h.alerts))
	}
	if n := alertsWith(t, h.alerts, "budget", "daily budget spent"); n != 1 {
		t.Fatalf("%d budget spent alerts, want 1", n)
	}
}
