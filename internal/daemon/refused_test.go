package daemon

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/checks"
	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/hook"
	"github.com/ai-heart/ai-heart/internal/testutil"
)

// TestRefusedCallsAlert: an exec agent whose client (Claude Code, its
// stream-json as recorded) refuses every tool call has tool_refused at
// error, naming the tool, and its runs are no answer: counted tool_refused
// and as delivery failures, never delivered. A run that refused some calls
// is a warning; a run that refused none clears it.
func TestRefusedCallsAlert(t *testing.T) {
	agent := filepath.Join(t.TempDir(), "fakeagent")
	if err := testutil.Build("../delivery/testdata/fakeagent", agent); err != nil {
		t.Fatal(err)
	}
	stream := filepath.Join(t.TempDir(), "stream.jsonl")
	play := func(recording string) {
		b, err := os.ReadFile(filepath.Join("..", "delivery", "testdata", "stream", recording))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(stream, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	play("claude-2.1.197-all-refused.jsonl")
	cfg := testConfig(t)
	cfg.Schedule.Every = config.Duration(300 * time.Millisecond)
	cfg.Agent = config.Delivery{Delivery: config.DeliveryExec, Command: []string{agent, "cat", stream},
		Timeout: config.Duration(30 * time.Second), Output: config.OutputStreamJSON}
	cfg.CircuitBreaker = config.CircuitBreaker{Failures: 1000, Cooldown: config.Duration(time.Hour), MaxCooldown: config.Duration(2 * time.Hour)}
	h := start(t, cfg, nil)
	h.waitFor("a run with every call refused, and its alert", 20*time.Second, func() bool {
		s, err := h.tryState()
		return err == nil && s.Counters.ToolRefused >= 1 && h.hasAlert("tool_refused", "error")
	})
	st := h.state()
	if c := st.Counters; c.Delivered != 0 || c.DeliveryFailures != c.ToolRefused || c.BySource["schedule"]["tool_refused"] != c.ToolRefused {
		t.Fatalf("counters %+v: want every run refused, a failure, never delivered", c)
	}
	if msg := alertMessage(h, "tool_refused", "error"); !strings.Contains(msg, "mcp__mcp-heart__checkpoint") {
		t.Fatalf("tool_refused alert %q does not name the refused tool", msg)
	}
	if !strings.Contains(strings.Join(st.Notices, "\n"), "your client refused your calls to mcp__mcp-heart__checkpoint") {
		t.Fatalf("notices %q: the agent is not told which tool was refused", st.Notices)
	}

	play("claude-2.1.197-refused.jsonl")
	h.waitFor("a warning for a run that refused some calls", 20*time.Second, func() bool {
		return h.hasAlert("tool_refused", "warning")
	})
	if msg := alertMessage(h, "tool_refused", "warning"); !strings.Contains(msg, "2 of 3 tool calls") || !strings.Contains(msg, "Bash, Write") {
		t.Fatalf("tool_refused warning %q: want 2 of 3 calls, Bash and Write", msg)
	}
	play("claude-2.1.197.jsonl")
	h.waitFor("ok after a run with nothing refused", 20*time.Second, func() bool {
		s, err := h.tryState()
		return err == nil && h.hasAlert("tool_refused", "ok") && s.Counters.Delivered >= 1
	})
}

// alertMessage is the message of the last alert of check at level.
func alertMessage(h *harness, check, level string) string {
	msg := ""
	for _, a := range alertsOf(h.t, h.alerts) {
		if a["check"] == check && a["level"] == level {
			msg, _ = a["message"].(string)
		}
	}
	return msg
}

// The hooks' refusals (Claude Code's PermissionDenied, sent in its auto
// mode) count when they came after the last exec run's; they never say a
// turn's every call was refused (the turn may go on), so they only warn.
func TestRefusalsNowPrefersTheNewer(t *testing.T) {
	t0 := time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC)
	run := checks.Refusals{Seen: true, At: t0, Refused: 0, Calls: 3}
	denied := func(at time.Time) hook.Activity {
		var a hook.Activity
		a.Apply(hook.Event{Time: at, Kind: hook.TurnStart})
		a.Apply(hook.Event{Time: at, Kind: hook.Tool, Tool: "Bash"})
		a.Apply(hook.Event{Time: at, Kind: hook.Refused, Tool: "Bash"})
		return a
	}
	for _, tc := range []struct {
		name     string
		run      checks.Refusals
		activity hook.Activity
		want     checks.Refusals
	}{
		{"nothing seen", checks.Refusals{}, hook.Activity{}, checks.Refusals{}},
		{"the run alone", run, hook.Activity{}, run},
		{"a hook refusal after the run", run, denied(t0.Add(time.Minute)), checks.Refusals{Seen: true, At: t0.Add(time.Minute), Tools: []string{"Bash"}, Refused: 1}},
		{"a hook refusal before the run", run, denied(t0.Add(-time.Minute)), run},
		{"hooks only", checks.Refusals{}, denied(t0), checks.Refusals{Seen: true, At: t0, Tools: []string{"Bash"}, Refused: 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := &agent{clientMemory: clientMemory{refusals: tc.run, activity: tc.activity}}
			if got := a.refusalsNow(); !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("refusalsNow = %+v, want %+v", got, tc.want)
			}
		})
	}
}
