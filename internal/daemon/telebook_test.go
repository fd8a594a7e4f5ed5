package daemon

import (
	"context"
	"fmt"
	"testing"
	"testing/synctest"
	"time"

	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/cost"
	"github.com/ai-heart/ai-heart/internal/delivery"
	"github.com/ai-heart/ai-heart/internal/telemetry"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

func usd(v float64) *float64 { return &v }

// One source per run: the telemetry when it reported the run (each request
// once, an export sent twice counted once), its own price taken as it
// comes; the run's output when the telemetry said nothing of it, or less.
func TestRunBookedFromOneSource(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig(t)
		cfg.Schedule.Every = config.Duration(time.Minute)
		stream := &cost.Usage{Tokens: cost.Tokens{Input: 30, Output: 15}, Models: map[string]cost.Tokens{"m": {Input: 30, Output: 15}}, ReportedUSD: usd(0.000525)}
		var tag string // the run in flight, as its client tags its telemetry
		req := func(key string, in, out int64) telemetry.Report {
			return telemetry.Report{Client: telemetry.ClaudeCode, Kind: telemetry.KindUsage, Key: key, Model: "m",
				Tokens: cost.Tokens{Input: in, Output: out}, USD: usd(0.000175), Run: tag}
		}
		var h *harness
		run := 0
		nd := func(config.Delivery, *workspace.Workspace) (delivery.Deliverer, error) {
			return &fakeDeliverer{method: config.DeliveryExec, deliver: func(ctx context.Context, p string) (delivery.Result, error) {
				run++
				tag = delivery.RunOf(ctx)
				switch run {
				case 1: // three requests, one exported twice, after the run's output
					go func() {
						time.Sleep(2 * time.Second)
						h.d.Telemetry("", []telemetry.Report{req("a", 10, 5), req("b", 10, 5), req("c", 10, 5)})
						h.d.Telemetry("", []telemetry.Report{req("c", 10, 5)})
					}()
				case 2: // no telemetry for this run
				case 3: // telemetry that says less than the output: the output stands
					h.d.Telemetry("", []telemetry.Report{req("d", 1, 1)})
				}
				return delivery.Result{Reply: "[IDLE]", Said: "[IDLE]", Usage: stream.Clone()}, nil
			}}, nil
		}
		h = startFake(t, cfg, nd)
		h.d.Telemetry("", []telemetry.Report{{Client: telemetry.ClaudeCode, Kind: telemetry.KindOther}}) // telemetry wired
		time.Sleep(3*time.Minute + 30*time.Second)
		synctest.Wait()
		st := h.state()
		c := st.Cost.Totals["schedule"]
		if c.Runs != 3 || c.Telemetry != 1 || c.Tokens != (cost.Tokens{Input: 90, Output: 45}) {
			t.Fatalf("ledger %+v: want 3 runs of 30+15 tokens, one from the telemetry", c)
		}
		if d := c.USD - 3*0.000525; d > 1e-12 || d < -1e-12 {
			t.Fatalf("$%v, want $%v: Claude Code's own prices", c.USD, 3*0.000525)
		}
	})
}

// A run whose only usage source is its telemetry is booked at its real
// requests: one forged negative request tagged with the run is refused,
// not summed into a run the ledger must then call unknown; and a
// stranger's untagged report arriving during the run is not the run's.
func TestForgedReportsDoNotChangeTheRun(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig(t)
		cfg.Schedule.Every = config.Duration(time.Minute)
		var h *harness
		nd := func(config.Delivery, *workspace.Workspace) (delivery.Deliverer, error) {
			return &fakeDeliverer{method: config.DeliveryExec, deliver: func(ctx context.Context, p string) (delivery.Result, error) {
				run := delivery.RunOf(ctx)
				h.d.Telemetry("", []telemetry.Report{
					{Client: telemetry.ClaudeCode, Kind: telemetry.KindUsage, Key: run + "a", Model: "m", Tokens: cost.Tokens{Input: 90_000, Output: 500}, Run: run},
					{Client: telemetry.ClaudeCode, Kind: telemetry.KindUsage, Key: run + "b", Model: "m", Tokens: cost.Tokens{Input: -1}, Run: run},
					{Client: telemetry.ClaudeCode, Kind: telemetry.KindUsage, Key: run + "c", Model: "claude-forged", Tokens: cost.Tokens{Input: 57_420}, Session: "stranger"},
				})
				return delivery.Result{Reply: "done"}, nil
			}}, nil
		}
		h = startFake(t, cfg, nd)
		h.d.Telemetry("", []telemetry.Report{{Client: telemetry.ClaudeCode, Kind: telemetry.KindOther}}) // telemetry wired
		time.Sleep(time.Minute + 30*time.Second)
		synctest.Wait()
		st := h.state()
		c := st.Cost.Totals["schedule"]
		if c.Runs != 1 || c.Unknown != 0 || c.Tokens != (cost.Tokens{Input: 90_000, Output: 500}) {
			t.Fatalf("ledger %+v: want one run of 90,000+500 tokens", c)
		}
		if st.Counters.TelemetryRefused != 1 {
			t.Fatalf("counters %+v: want the negative report refused", st.Counters)
		}
	})
}

func TestOneSourceRule(t *testing.T) {
	own := &cost.Usage{Tokens: cost.Tokens{Input: 10}}
	tele := &cost.Usage{Tokens: cost.Tokens{Input: 10}}
	more := &cost.Usage{Tokens: cost.Tokens{Input: 11}}
	for _, c := range []struct {
		own, tele *cost.Usage
		want      *cost.Usage
		from      string
	}{
		{nil, nil, nil, ""},
		{own, nil, own, cost.FromStream},
		{nil, tele, tele, cost.FromTelemetry},
		{own, tele, tele, cost.FromTelemetry}, // a tie: the telemetry
		{more, tele, more, cost.FromStream},   // the telemetry never lowers a run
		{own, more, more, cost.FromTelemetry},
	} {
		u, from := oneSource(c.own, cost.FromStream, c.tele)
		if u != c.want || from != c.from {
			t.Errorf("oneSource(%v, %v) = %v %q, want %v %q", c.own, c.tele, u, from, c.want, c.from)
		}
	}
}

// A report belongs to a run by the tags its client put on it, or to a turn
// by its session and time, never by its arrival alone; each is taken once,
// and what no run took is counted apart, not charged.
func TestTeleBookBindsBySender(t *testing.T) {
	var b teleBook
	t0 := time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC)
	use := func(key, run, session string) telemetry.Report {
		return telemetry.Report{Kind: telemetry.KindUsage, Key: key, Run: run, Session: session, Tokens: cost.Tokens{Input: 5}}
	}
	b.add(t0, "alice", 0, teleBind{}, []telemetry.Report{use("x", "r1", "s"), {Kind: telemetry.KindOther, Key: "y"}})
	b.add(t0.Add(time.Second), "alice", 0, teleBind{}, []telemetry.Report{use("x", "r1", "s")}) // the same export again
	b.add(t0.Add(2*time.Second), "alice", 0, teleBind{}, []telemetry.Report{use("other-run", "r2", "s"), use("turn", "", "s"), use("stranger", "", "s2")})
	if got := b.take(teleBind{run: "r1"}); len(got) != 1 || got[0].Key != "x" {
		t.Fatalf("run r1 took %v, want x once", got)
	}
	if got := b.take(teleBind{run: "r1"}); len(got) != 0 {
		t.Fatalf("taken twice: %v", got)
	}
	if got := b.take(teleBind{session: "s", from: t0, to: t0.Add(time.Minute)}); len(got) != 1 || got[0].Key != "turn" {
		t.Fatalf("the turn of session s took %v, want only its own untagged report", got)
	}
	if got := b.take(teleBind{session: "s", from: t0.Add(time.Hour)}); len(got) != 0 {
		t.Fatalf("a later turn took %v", got)
	}
	if u, _, _ := b.add(t0.Add(2*time.Hour), "alice", 0, teleBind{}, nil); u != 2 || len(b.held) != 0 {
		t.Fatalf("after two hours: %d counted apart, %v held; want the two reports no run took counted, none held", u, b.held)
	}
	// Another agent's tagged report, an implausible one, one that used
	// nothing: none is kept.
	u, r, _ := b.add(t0.Add(3*time.Hour), "alice", 1000, teleBind{}, []telemetry.Report{
		{Kind: telemetry.KindUsage, Key: "bob", Agent: "bob", Run: "r3", Tokens: cost.Tokens{Input: 5}},
		{Kind: telemetry.KindUsage, Key: "neg", Run: "r3", Tokens: cost.Tokens{Input: -1}},
		{Kind: telemetry.KindUsage, Key: "huge", Run: "r3", Tokens: cost.Tokens{Input: 1001}},
		{Kind: telemetry.KindUsage, Key: "zero", Run: "r3"},
	})
	if u != 1 || r != 2 || len(b.held) != 0 {
		t.Fatalf("%d unmatched, %d refused, held %v: want bob's unmatched, two refused, none held", u, r, b.held)
	}
}

// A flood of reports cannot push out what the run in flight will take:
// the book makes room by its oldest report of no run in flight, and a
// report that arrives once the book is full still gets in.
func TestTeleBookFloodKeepsTheLiveRuns(t *testing.T) {
	var b teleBook
	t0 := time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC)
	live := teleBind{run: "r1"}
	first := telemetry.Report{Kind: telemetry.KindUsage, Key: "real-1", Run: "r1", Tokens: cost.Tokens{Input: 150_500}}
	b.add(t0, "alice", 0, live, []telemetry.Report{first})
	junk := make([]telemetry.Report, teleMaxHeld)
	for i := range junk {
		junk[i] = telemetry.Report{Kind: telemetry.KindUsage, Key: fmt.Sprint("junk", i), Tokens: cost.Tokens{Input: 1}}
	}
	_, _, overflow := b.add(t0.Add(time.Second), "alice", 0, live, junk)
	b.add(t0.Add(2*time.Second), "alice", 0, live, []telemetry.Report{{Kind: telemetry.KindUsage, Key: "real-2", Run: "r1", Tokens: cost.Tokens{Input: 500_000}}})
	got := b.take(live)
	if len(got) != 2 || got[0].Tokens.Input != 150_500 || got[1].Tokens.Input != 500_000 || overflow == 0 {
		t.Fatalf("the run took %v after a flood (overflow %d), want both its reports", got, overflow)
	}
}
