package clients

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/cost"
)

// The stand-ins report known usage on every request: Gemini's
// usageMetadata a prompt of 10 and 5 candidates, Claude's message_start 10
// input tokens and message_delta 5 output tokens. The idle script makes
// three requests a run (two tool calls, then [IDLE]), so each ghost run
// costs exactly 30 input and 15 output tokens, and the ledger sums them.
const perRunInput, perRunOutput = 30, 15

// costToday reads today's ghost cell from the state file.
func (w *world) costToday() (cost.Cell, bool) {
	b, err := os.ReadFile(filepath.Join(w.ws, "stats", "watchdog_state.json"))
	if err != nil {
		return cost.Cell{}, false
	}
	var st struct {
		Cost *cost.Summary `json:"cost"`
	}
	if json.Unmarshal(b, &st) != nil || st.Cost == nil {
		return cost.Cell{}, false
	}
	return st.Cost.Today.By.Sum(cost.Ghost), true
}

func (w *world) costed() cost.Cell {
	w.t.Helper()
	var c cost.Cell
	w.waitFor("a ghost run booked in the cost ledger", 150*time.Second, func() bool {
		var ok bool
		c, ok = w.costToday()
		return ok && c.Runs >= 1
	})
	want := cost.Tokens{Input: perRunInput * c.Runs, Output: perRunOutput * c.Runs}
	if c.Unknown != 0 || c.Tokens != want {
		w.t.Fatalf("ghosts today %+v, want %d runs of %d input and %d output tokens", c, c.Runs, perRunInput, perRunOutput)
	}
	return c
}

func TestGeminiCLICost(t *testing.T) {
	t.Parallel() // waits on its schedule; the timing tests run alone
	w, s := newWorld(t), idleScript()
	w.geminiExec(s, []string{"--output-format", "stream-json"}, "output: stream-json")
	c := w.costed()
	// Gemini CLI prices nothing and the config has no prices: tokens only.
	if c.Unpriced != c.Runs || c.USD != 0 {
		t.Fatalf("ghosts today %+v, want every run unpriced", c)
	}
}

func TestClaudeCodeCost(t *testing.T) {
	t.Parallel() // waits on its schedule; the timing tests run alone
	w, s := newWorld(t, "claude-code"), idleScript()
	w.claudeExec(s, []string{"--output-format", "stream-json", "--verbose"}, "output: stream-json")
	c := w.costed()
	// Claude Code prices its runs itself (total_cost_usd): taken at its word.
	if c.Unpriced != 0 {
		t.Fatalf("ghosts today %+v, want Claude Code's own price", c)
	}
	t.Logf("Claude Code priced %d ghost runs at $%v", c.Runs, c.USD)
}
