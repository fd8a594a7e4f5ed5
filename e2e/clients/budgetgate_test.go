package clients

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/hook"
)

// A budget that binds inside the turn (budget.enforce: turn), against the
// real clients: a real `watchdog run` wakes the client by exec in a
// workspace laid out by init alone (its hooks run the real heart-hook, its
// telemetry goes to the watchdog's window). The stand-in model checks in
// through mcp-heart, then thinks until the budget gate closes: the
// client's own telemetry of the turn's first requests, exported while the
// turn is in flight, spends today's budget (daily_tokens: 1). Then it asks
// for a shell command, which the pre-tool hook refuses with the text the
// agent reads, and checks in again, which still works.

// gateSpentText is how the refusal the agent reads begins (English: the
// workspace's language).
const gateSpentText = "today's budget is spent"

// gateTouched is the file the refused shell command would have made.
const gateTouched = "gate-refused.txt"

// gateTurn is the stand-in's side of the turn: the script, and what it saw
// of the gate while the turn went on.
type gateTurn struct {
	s *script

	mu           sync.Mutex
	openAtStart  bool          // the gate was open when the turn began
	closedAfter  time.Duration // how long the model thought before it closed
	closedInTime bool
}

// newGateTurn scripts the turn with shell, the client's own shell tool
// asked to make gateTouched.
func newGateTurn(w *world, shell call) *gateTurn {
	g := &gateTurn{}
	g.s = &script{Calls: []call{
		{Tool: "checkpoint", Args: map[string]any{"current_activity": "before the budget is spent"}},
		shell,
		{Tool: "checkpoint", Args: map[string]any{"current_activity": "after the budget is spent"}},
	}, Final: "Stopping: today's budget is spent."}
	g.s.Hold = func(step int) {
		switch step {
		case 0:
			g.mu.Lock()
			g.openAtStart = !gateClosed(w.ws)
			g.mu.Unlock()
		case 1:
			// The model thinks until the client's telemetry of this very
			// turn has spent the budget (a minute at most, well inside
			// the run's timeout).
			start := time.Now()
			for !gateClosed(w.ws) && time.Since(start) < time.Minute {
				time.Sleep(100 * time.Millisecond)
			}
			g.mu.Lock()
			g.closedAfter, g.closedInTime = time.Since(start), gateClosed(w.ws)
			g.mu.Unlock()
		}
	}
	// One wakeup only: the budget stops the next.
	w.more += "budget: {daily_tokens: 1, enforce: turn}\n"
	return g
}

// gateClosed reports whether the workspace's budget gate refuses tool
// calls now, as heart-hook reads it.
func gateClosed(ws string) bool {
	g, _ := hook.ReadGate(ws)
	return g.Closed(time.Now())
}

// refusedMidTurn waits for the turn's three tool results, then checks
// that the gate closed while the turn was in flight, that the shell call
// was refused with the budget's text and did not run, and that mcp-heart's
// checkpoint after it went through.
func (w *world) refusedMidTurn(g *gateTurn) {
	t := w.t
	t.Helper()
	start := time.Now()
	w.waitFor("the turn's three tool results", 150*time.Second, func() bool { return len(g.s.seen()) >= 3 })
	g.mu.Lock()
	openAtStart, closedAfter, closedInTime := g.openAtStart, g.closedAfter, g.closedInTime
	g.mu.Unlock()
	if !openAtStart {
		t.Fatal("the gate was closed before the turn began: it must close inside the turn")
	}
	if !closedInTime {
		t.Fatalf("the gate did not close within %s of the turn's first tool call; channels %v", closedAfter, w.channels())
	}
	seen := g.s.seen()
	if !strings.Contains(seen[0], "stats/checkpoints/") {
		t.Fatalf("the first checkpoint's result %q: want it to have worked", tail(seen[0], 500))
	}
	if !strings.Contains(seen[1], gateSpentText) {
		t.Fatalf("the shell call's result %q: want the hook's refusal (%q)", tail(seen[1], 1000), gateSpentText)
	}
	if _, err := os.Stat(filepath.Join(w.ws, gateTouched)); err == nil {
		t.Fatal("the refused shell command ran")
	}
	if !strings.Contains(seen[2], "stats/checkpoints/") || strings.Contains(seen[2], gateSpentText) || refusal(seen[2]) != "" {
		t.Fatalf("the checkpoint after the refusal %q: want mcp-heart's call to have worked", tail(seen[2], 500))
	}
	if !checkpointSays(w.ws, "after the budget is spent") {
		t.Fatal("no checkpoint file holds the call made after the gate closed")
	}
	if w.channels()["telemetry"].IsZero() {
		t.Fatalf("channels %v: the client's telemetry never reached the watchdog", w.channels())
	}
	t.Logf("the gate closed %s into the model's thinking; the turn's tool results in %s; hook events %v; the refusal the model read: %s",
		closedAfter.Round(100*time.Millisecond), time.Since(start).Round(100*time.Millisecond), w.hookEvents(), tail(seen[1], 400))
}

// checkpointSays reports whether a checkpoint file holds text.
func checkpointSays(ws, text string) bool {
	files, _ := filepath.Glob(filepath.Join(ws, "stats", "checkpoints", "*.txt"))
	for _, f := range files {
		if b, err := os.ReadFile(f); err == nil && strings.Contains(string(b), text) {
			return true
		}
	}
	return false
}

// Claude Code exports its log events every 5 s by default
// (OTEL_LOGS_EXPORT_INTERVAL), not only as it exits: the turn's first
// api_request reaches the watchdog while the turn waits.
func TestClaudeCodeBudgetRefusesMidTurn(t *testing.T) {
	t.Parallel() // waits on its schedule; the timing tests run alone
	w, _ := newTelemetryWorld(t, "claude-code", true)
	g := newGateTurn(w, call{Builtin: "Bash", Args: map[string]any{"command": "touch " + gateTouched}})
	w.claudeExec(g.s, []string{"--allowedTools=Bash"})
	w.refusedMidTurn(g)
}

func TestGeminiCLIBudgetRefusesMidTurn(t *testing.T) {
	t.Parallel() // waits on its schedule; the timing tests run alone
	w, _ := newTelemetryWorld(t, "gemini", true)
	g := newGateTurn(w, call{Builtin: "run_shell_command", Args: map[string]any{"command": "touch " + gateTouched}})
	w.geminiExec(g.s, []string{"--yolo"})
	w.refusedMidTurn(g)
}

func TestCodexBudgetRefusesMidTurn(t *testing.T) {
	t.Parallel() // waits on its schedule; the timing tests run alone
	w, _ := newTelemetryWorld(t, "codex", true)
	w.codexHooks = true
	g := newGateTurn(w, call{Builtin: "exec_command", Args: map[string]any{"cmd": "touch " + gateTouched}})
	w.codexExec(g.s, nil)
	w.refusedMidTurn(g)
}
