package checks

import (
	"strings"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/lang"
	"github.com/ai-heart/ai-heart/internal/scan"
)

// tool_refused: nothing to say where no one shows refusals, ok after a run
// without any, a warning naming the refused tools, an error when the client
// refused every call of the run; never recovery. The agent hears which
// tools, in its language; the alert line stays English.
func TestToolRefused(t *testing.T) {
	at := now.Add(-2 * time.Minute)
	for _, tc := range []struct {
		name   string
		r      Refusals
		level  Level
		msg    string
		notice string
	}{
		{"not seen", Refusals{}, OK, "refused calls not seen", ""},
		{"none refused", Refusals{Seen: true, At: at, Calls: 4}, OK, "no tool call refused in the last run", ""},
		{"some refused", Refusals{Seen: true, At: at, Tools: []string{"Bash", "Write"}, Refused: 2, Calls: 3}, Warning,
			"the client refused 2 of 3 tool calls in the run at 11:58:00: Bash, Write; allow them", "your calls to Bash, Write: they are not allowed here"},
		{"calls unknown (hooks)", Refusals{Seen: true, At: at, Tools: []string{"Bash"}, Refused: 1}, Warning,
			"the client refused 1 tool call in the run at 11:58:00: Bash;", "your calls to Bash:"},
		{"every call refused", Refusals{Seen: true, At: at, Tools: []string{"mcp__mcp-heart__checkpoint"}, Refused: 1, Calls: 1}, Error,
			"the client refused every tool call of the run at 11:58:00 (1): mcp__mcp-heart__checkpoint; the run did nothing", "mcp__mcp-heart__checkpoint"},
		{"more refusals than calls (forged)", Refusals{Seen: true, At: at, Refused: 9, Calls: 2}, Error,
			"the client refused every tool call of the run at 11:58:00 (2): a tool;", "your calls to a tool:"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := cfg
			c.Refusals = tc.r
			res, _ := Evaluate(now, scan.Snapshot{}, c, State{})
			f, ok := res.Finding(ToolRefused)
			if !ok || f.Level != tc.level || !strings.Contains(f.Message, tc.msg) || !strings.Contains(f.Notice, tc.notice) {
				t.Fatalf("finding %+v, want %s with %q, notice with %q", f, tc.level, tc.msg, tc.notice)
			}
			if (f.Notice == "") != (tc.level == OK) {
				t.Fatalf("notice %q at %s: want one exactly when not ok", f.Notice, f.Level)
			}
		})
	}
	if Recoverable(ToolRefused) {
		t.Error("tool_refused starts recovery; the agent is not stuck, its client is configured against it")
	}
	c := cfg
	c.Language = lang.Japanese
	c.Refusals = Refusals{Seen: true, At: at, Tools: []string{"Bash", "Write"}, Refused: 2, Calls: 2}
	res, _ := Evaluate(now, scan.Snapshot{}, c, State{})
	f, _ := res.Finding(ToolRefused)
	if !strings.Contains(f.Notice, "Bash、Write の呼び出しを拒否しました") || !strings.HasPrefix(f.Message, "the client refused every tool call") {
		t.Fatalf("Japanese finding %+v: want the notice in Japanese, the alert line in English", f)
	}
}
