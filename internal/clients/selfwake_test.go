package clients_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/clients/claudecode"
	"github.com/ai-heart/ai-heart/internal/hook"
)

// Claude Code's Stop says what will wake the session by itself: its
// background work (background_tasks) and its own crons (session_crons,
// each {id, schedule, recurring, prompt}), in 2.1.197 and 2.1.337 alike.
// The agent can pipe any line to heart-hook: a field of a wrong type loses
// that field, never the turn's end, and the counts and lists are bounded.
func TestParseSelfWakeups(t *testing.T) {
	now := time.Date(2026, 12, 8, 0, 30, 0, 0, time.UTC)
	many := make([]string, 5000)
	for i := range many {
		many[i] = fmt.Sprintf(`{"id":"c%d","schedule":"*/5 * * * *","recurring":true,"prompt":"p"}`, i)
	}
	long := strings.Repeat("1,", 100) + "1 * * * *"
	for _, tc := range []struct {
		name, in          string
		tasks, count, got int
		first             hook.Cron
	}{
		{"none", `{"hook_event_name":"Stop","background_tasks":[],"session_crons":[]}`, 0, 0, 0, hook.Cron{}},
		{"absent (an older client)", `{"hook_event_name":"Stop","last_assistant_message":"done"}`, 0, 0, 0, hook.Cron{}},
		{"parked", `{"hook_event_name":"Stop","background_tasks":[{"id":"b1","type":"shell","status":"running"}],"session_crons":[{"id":"w1","schedule":"37 14 8 12 *","recurring":false,"prompt":"check the build; never kept"}]}`, 1, 1, 1, hook.Cron{ID: "w1", Schedule: "37 14 8 12 *"}},
		{"wrong types", `{"hook_event_name":"Stop","background_tasks":"lots","session_crons":{"id":"x"}}`, 0, 0, 0, hook.Cron{}},
		{"wrong entry types", `{"hook_event_name":"Stop","session_crons":[7,"x",{"schedule":5},{"id":"ok","schedule":"0 * * * *","recurring":"yes"},{"id":"y","schedule":"0 9 * * *","recurring":true}]}`, 0, 1, 1, hook.Cron{ID: "y", Schedule: "0 9 * * *", Recurring: true}},
		{"thousands", `{"hook_event_name":"Stop","background_tasks":[` + strings.Repeat(`{},`, 4999) + `{}],"session_crons":[` + strings.Join(many, ",") + `]}`, hook.MaxTasks, hook.MaxTasks, hook.MaxCrons, hook.Cron{ID: "c0", Schedule: "*/5 * * * *", Recurring: true}},
		{"a schedule no cron is", `{"hook_event_name":"Stop","session_crons":[{"id":"x","schedule":"` + long + `"},{"id":"z\u001b[2J","schedule":"0 0 * * *"}]}`, 0, 2, 1, hook.Cron{ID: "z[2J", Schedule: "0 0 * * *"}},
		{"not on a tool call", `{"hook_event_name":"PreToolUse","tool_name":"Bash","background_tasks":[{}],"session_crons":[{"id":"x","schedule":"* * * * *"}]}`, 0, 0, 0, hook.Cron{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e, err := Parse(ClaudeCode, []byte(tc.in), now)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if e.Tasks != tc.tasks || e.CronCount != tc.count || len(e.Crons) != tc.got {
				t.Fatalf("Parse = tasks %d, crons %d of %d; want %d, %d of %d", e.Tasks, len(e.Crons), e.CronCount, tc.tasks, tc.got, tc.count)
			}
			if tc.got > 0 && e.Crons[0] != tc.first {
				t.Errorf("first cron %+v, want %+v", e.Crons[0], tc.first)
			}
			line, err := json.Marshal(e)
			if err != nil || len(line) > hook.MaxLine {
				t.Errorf("spool line of %d bytes (%v): want under %d", len(line), err, hook.MaxLine)
			}
			if strings.Contains(string(line), "never kept") {
				t.Errorf("the event keeps a cron's prompt: %s", line)
			}
		})
	}
}

// PostModelSwitch (2.1.337) names the model switched to and who switched:
// "auto" is the client's own fallback.
func TestParseModelSwitch(t *testing.T) {
	now := time.Date(2026, 12, 8, 0, 30, 0, 0, time.UTC)
	e, err := Parse(ClaudeCode, []byte(`{"hook_event_name":"PostModelSwitch","session_id":"s","from_model":"claude-opus-4-5","to_model":"claude-sonnet-4-5","requested_model":"opus","source":"auto","context_tokens":1200}`), now)
	if err != nil || e.Kind != hook.ModelSwitch || e.Model != "claude-sonnet-4-5" || e.Detail != "auto" {
		t.Fatalf("Parse = %+v, %v; want a model switch to claude-sonnet-4-5 by auto", e, err)
	}
	e, err = Parse(ClaudeCode, []byte(`{"hook_event_name":"PostModelSwitch","to_model":{"x":1},"source":7}`), now)
	if err == nil {
		t.Fatalf("Parse of wrong types = %+v: want an error (the line is no model switch)", e)
	}
}

// The status line names the client's version (2.1.197 and 2.1.337 alike):
// kept only when it is a version number.
func TestStatuslineVersion(t *testing.T) {
	for in, want := range map[string]string{
		`{"version":"2.1.337","rate_limits":{"five_hour":{"used_percentage":100,"resets_at":1796000000}}}`: "2.1.337",
		`{"version":"2.1.197"}`:          "2.1.197",
		`{"version":7}`:                  "",
		`{"version":"2.1.337 (forged)"}`: "",
		`{"version":["2.1.337"]}`:        "",
		`{"rate_limits":{}}`:             "",
	} {
		st, err := claudecode.Adapter{}.Statusline()([]byte(in))
		if err != nil || st.Version != want {
			t.Errorf("Statusline(%s) = %+v, %v; want version %q", in, st, err, want)
		}
	}
}
