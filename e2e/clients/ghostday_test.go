package clients

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// BenchmarkGhostModeDay measures what a day of the paper's example
// configuration (docs/cost.md: 48 wakeups a day, 80 % of them idle) costs with
// ghost mode against without it, with the real Gemini CLI (`gemini -p`,
// stream-json) woken by the real watchdog, its model a stand-in that
// reports usage from the size of each request (prompt: bytes / 4) as a real
// model's grows with the client's system prompt, tools and history:
//   - a working wakeup: a checkpoint, an activity log, a closing sentence;
//   - an idle wakeup with ghost mode: the reply [IDLE], nothing else;
//   - an idle wakeup without it: a short activity log saying so (what the
//     tmux and inbox idle prompt asks for), then a sentence.
//
// Each kind runs 3 times; the metrics are tokens per wakeup of each kind
// and the day's tokens both ways. Run with
//
//	AIHEART_CLIENTS_DIR=~/.cache/ai-heart/clients go test ./e2e/clients -run '^$' -bench GhostModeDay -benchtime 1x
func BenchmarkGhostModeDay(b *testing.B) {
	theme := map[string]any{"theme_start_id": "20250101000000", "theme_directory_part": "tides"}
	logCall := func(kind, text string) call {
		args := map[string]any{"activity_type": kind, "activity_content": []string{text}}
		for k, v := range theme {
			args[k] = v
		}
		return call{Tool: "create_activity_log", Args: args}
	}
	kinds := []struct {
		name string
		s    func() *script
	}{
		{"work", func() *script {
			return &script{SizedUsage: true, Final: "Logged this step of the tides study.", Calls: []call{
				{Tool: "checkpoint", Args: map[string]any{"current_activity": "charting the spring tides"}},
				logCall("thinking", "compared the spring and neap tide tables for the bay"),
			}}
		}},
		{"ghost", func() *script { return &script{SizedUsage: true, Final: "[IDLE]"} }},
		{"idle-log", func() *script {
			return &script{SizedUsage: true, Final: "Nothing new; logged it and waiting.", Calls: []call{
				logCall("other", "checked themebox and feedbackbox: nothing new, waiting for the next heartbeat"),
			}}
		}},
	}
	per := map[string]float64{}
	for b.Loop() {
		for _, k := range kinds {
			per[k.name] = wakeupTokens(b, k.s())
		}
	}
	const wakeups, idle = 48, 0.8
	with := wakeups*(1-idle)*per["work"] + wakeups*idle*per["ghost"]
	without := wakeups*(1-idle)*per["work"] + wakeups*idle*per["idle-log"]
	b.ReportMetric(per["work"], "tokens/work-wakeup")
	b.ReportMetric(per["ghost"], "tokens/ghost-wakeup")
	b.ReportMetric(per["idle-log"], "tokens/idle-log-wakeup")
	b.ReportMetric(with, "tokens/day-ghost")
	b.ReportMetric(without, "tokens/day-no-ghost")
}

// wakeupTokens runs s three times through the watchdog and returns the
// tokens of one run, from the ledger.
func wakeupTokens(b *testing.B, s *script) float64 {
	w := newWorld(b)
	if err := os.MkdirAll(filepath.Join(w.ws, "artifacts", "20250101000000_tides", "histories"), 0o755); err != nil {
		b.Fatal(err)
	}
	w.geminiExec(s, []string{"--output-format", "stream-json"}, "output: stream-json")
	var runs, tokens float64
	w.waitFor("3 runs booked", 180*time.Second, func() bool {
		runs, tokens = ledgerTotals(w)
		return runs >= 3
	})
	return tokens / runs
}

// ledgerTotals reads the runs and tokens the ledger's totals booked, from
// the state the watchdog publishes.
func ledgerTotals(w *world) (runs, tokens float64) {
	b, err := os.ReadFile(filepath.Join(w.ws, "stats", "watchdog_state.json"))
	if err != nil {
		return 0, 0
	}
	var st struct {
		Cost struct {
			Totals map[string]struct {
				Runs   float64
				Tokens map[string]float64
			}
		}
	}
	json.Unmarshal(b, &st)
	for _, c := range st.Cost.Totals {
		runs += c.Runs
		for _, v := range c.Tokens {
			tokens += v
		}
	}
	return runs, tokens
}
