package daemon

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"testing/synctest"
	"time"

	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/cost"
	"github.com/ai-heart/ai-heart/internal/hook"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// TestImplausibleStreamUsage: an exec agent's stream-json whose usage is
// negative (with Claude's own price at $-15), 2^63-1 tokens, or Gemini stats
// with a negative prompt is booked as a run of unknown usage, with a "usage"
// alert: the day's budget does not move, never a credit, never a wrap.
func TestImplausibleStreamUsage(t *testing.T) {
	agent := buildFakeAgent(t)
	for name, stream := range map[string]string{
		"claude negative": `{"type":"system","subtype":"init","model":"m"}
{"type":"assistant","message":{"id":"a","model":"m","content":[{"type":"text","text":"done"}],"usage":{"input_tokens":-5000000,"output_tokens":1}}}
{"type":"result","subtype":"success","result":"done","usage":{"input_tokens":-5000000,"output_tokens":1},"total_cost_usd":-15,"modelUsage":{"m":{"inputTokens":-5000000,"outputTokens":1}}}
`,
		"claude 2^63-1": `{"type":"system","subtype":"init","model":"m"}
{"type":"result","subtype":"success","result":"done","usage":{"input_tokens":9223372036854775807,"output_tokens":1},"modelUsage":{"m":{"inputTokens":9223372036854775807,"outputTokens":1}}}
`,
		"gemini negative": `{"type":"init","model":"auto"}
{"type":"message","role":"assistant","content":"done"}
{"type":"result","status":"success","stats":{"total_tokens":10,"input_tokens":-9223372036854775807,"output_tokens":5,"cached":0,"input":5}}
`,
	} {
		t.Run(name, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "stream.jsonl")
			if err := os.WriteFile(file, []byte(stream), 0o644); err != nil {
				t.Fatal(err)
			}
			cfg := testConfig(t)
			cfg.Schedule.Every = config.Duration(200 * time.Millisecond)
			cfg.Agent = config.Delivery{Delivery: config.DeliveryExec, Command: []string{agent, "cat", file},
				Timeout: config.Duration(30 * time.Second), Output: config.OutputStreamJSON}
			prices := map[string]config.Price{"m": {Input: 3, Output: 15}}
			cfg.Prices, cfg.AgentConfig.Prices = prices, prices
			cfg.Budget.DailyTokens, cfg.Budget.DailyUSD = 100_000, 5
			h := start(t, cfg, nil)
			h.waitFor("two runs booked", 15*time.Second, func() bool {
				s, err := h.tryState()
				return err == nil && s.Cost != nil && s.Cost.Today.By.Sum("").Runs >= 2
			})
			h.stop()
			st := h.state()
			day := st.Cost.Today.By.Sum("")
			if day.Unknown != day.Runs || day.Tokens != (cost.Tokens{}) || day.USD != 0 {
				t.Fatalf("today %+v: want every run booked as unknown usage", day)
			}
			if b := st.Cost.Budget; b == nil || b.UsedTokens != 0 || b.UsedUSD != 0 || b.Spent {
				t.Fatalf("budget %+v, want untouched", st.Cost.Budget)
			}
			if tot := st.Cost.Totals["schedule"]; tot.Tokens != (cost.Tokens{}) || tot.USD != 0 {
				t.Fatalf("totals %+v, want no tokens or dollars", tot)
			}
			if n := alertsWith(t, h.alerts, "usage", "implausible usage report"); int64(n) < day.Runs {
				t.Fatalf("%d usage alerts for %d runs: %v", n, day.Runs, alertsOf(t, h.alerts))
			}
		})
	}
}

// TestForgedTurnUsage: the agent forges a line of its client's session
// transcript (input_tokens -5,000,000) and a Stop hook event naming it: the
// turn is booked as unknown usage with a "usage" alert, and what an honest
// turn booked before stays booked.
func TestForgedTurnUsage(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig(t)
		cfg.Schedule.Every = config.Duration(time.Second)
		cfg.Budget.DailyTokens = 100_000
		rec := &recorder{method: config.DeliveryTmux}
		h := startFake(t, cfg, rec.factory)
		ws, _ := workspace.New(cfg.Workspace, nil)
		session := filepath.Join(t.TempDir(), "session.jsonl")
		turn := func(id string, in int64) {
			said(t, ws, hook.Event{Kind: hook.TurnStart})
			line := fmt.Sprintf(`{"type":"assistant","timestamp":%q,"message":{"id":%q,"model":"claude-x","usage":{"input_tokens":%d,"output_tokens":50}}}`+"\n",
				time.Now().UTC().Format(time.RFC3339Nano), id, in)
			if err := os.WriteFile(session, []byte(line), 0o644); err != nil {
				t.Fatal(err)
			}
			said(t, ws, hook.Event{Kind: hook.TurnEnd, Transcript: session})
		}
		time.Sleep(1050 * time.Millisecond)
		synctest.Wait()
		turn("honest", 200)
		time.Sleep(time.Second)
		synctest.Wait()
		turn("forged", -5_000_000)
		time.Sleep(1100 * time.Millisecond)
		synctest.Wait()
		st := h.state()
		worked := st.Cost.Today.By["schedule"][cost.Worked]
		if worked.Runs != 2 || worked.Unknown != 1 || worked.Tokens != (cost.Tokens{Input: 200, Output: 50}) {
			t.Fatalf("worked %+v, want the honest turn's 250 tokens and one unknown", worked)
		}
		if b := st.Cost.Budget; b == nil || b.UsedTokens != 250 {
			t.Fatalf("budget %+v, want 250 tokens used", st.Cost.Budget)
		}
		if n := alertsWith(t, h.alerts, "usage", "input tokens -5000000: a negative count"); n != 1 {
			t.Fatalf("%d usage alerts, want 1: %v", n, alertsOf(t, h.alerts))
		}
	})
}
