package daemon

import (
	"context"
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
		req := func(key string, in, out int64) telemetry.Report {
			return telemetry.Report{Client: telemetry.ClaudeCode, Kind: telemetry.KindUsage, Key: key, Model: "m",
				Tokens: cost.Tokens{Input: in, Output: out}, USD: usd(0.000175)}
		}
		var h *harness
		run := 0
		nd := func(config.Delivery, *workspace.Workspace) (delivery.Deliverer, error) {
			return &fakeDeliverer{method: config.DeliveryExec, deliver: func(ctx context.Context, p string) (delivery.Result, error) {
				run++
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
				return delivery.Result{Reply: "[IDLE]", Usage: stream.Clone()}, nil
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
	var b teleBook
	t0 := time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC)
	b.add(t0, []telemetry.Report{{Kind: telemetry.KindUsage, Key: "x"}, {Kind: telemetry.KindOther, Key: "y"}})
	b.add(t0.Add(time.Second), []telemetry.Report{{Kind: telemetry.KindUsage, Key: "x"}})
	b.add(t0.Add(time.Minute), []telemetry.Report{{Kind: telemetry.KindUsage, Key: "z"}})
	if got := b.take(t0, t0.Add(10*time.Second)); len(got) != 1 || got[0].Key != "x" {
		t.Fatalf("take %v, want x once", got)
	}
	if got := b.take(t0, t0.Add(10*time.Second)); len(got) != 0 {
		t.Fatalf("taken twice: %v", got)
	}
	b.add(t0.Add(2*time.Hour), nil)
	if len(b.held) != 0 {
		t.Fatalf("held %v past an hour", b.held)
	}
}
