package clients_test

import (
	"bufio"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/clients"
	"github.com/ai-heart/ai-heart/internal/clients/agy"
	"github.com/ai-heart/ai-heart/internal/clients/claudecode"
	"github.com/ai-heart/ai-heart/internal/clients/codex"
	"github.com/ai-heart/ai-heart/internal/clients/gemini"
	"github.com/ai-heart/ai-heart/internal/hook"
)

// The clients, by the names the hook tests use.
const (
	ClaudeCode = claudecode.Name
	Gemini     = gemini.Name
	Codex      = codex.Name
	Agy        = agy.Name
)

// Parse reads a hook input as the client named client's hooks speak.
func Parse(client string, data []byte, now time.Time) (hook.Event, error) {
	return clients.ParseHook(client, data, now)
}

// The payloads in testdata are what the installed clients sent to a hook
// that logged its stdin (Claude Code 2.1.197, Gemini CLI 0.61.0 and Codex
// 0.169.0, one headless turn of two shell calls against the scripted model
// stand-in of e2e/clients), paths shortened. Codex names its exec_command
// tool "Bash" there, and sends PostToolUse for a command that exits 1: it
// has no failure event.
func TestParseRealPayloads(t *testing.T) {
	now := time.Date(2026, 11, 25, 13, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		client, file string
		want         []hook.Kind
	}{
		{ClaudeCode, "claudecode/testdata/claude-code-2.1.197.jsonl", []hook.Kind{hook.SessionStart, hook.TurnStart, hook.Tool, hook.ToolDone, hook.Tool, hook.ToolFailed, hook.TurnEnd, hook.SessionEnd}},
		{Codex, "codex/testdata/codex-0.169.0.jsonl", []hook.Kind{hook.SessionStart, hook.TurnStart, hook.Tool, hook.ToolDone, hook.Tool, hook.ToolDone, hook.TurnEnd, hook.SessionEnd}},
		{Gemini, "gemini/testdata/gemini-0.61.0.jsonl", []hook.Kind{hook.SessionStart, hook.TurnStart, hook.Compact, hook.Tool, hook.ToolDone, hook.Compact, hook.Tool, hook.ToolDone, hook.Compact, hook.TurnEnd, hook.SessionEnd}},
	} {
		t.Run(tc.client, func(t *testing.T) {
			f, err := os.Open(tc.file)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			var got []hook.Event
			sc := bufio.NewScanner(f)
			sc.Buffer(nil, 1<<20)
			for sc.Scan() {
				if strings.TrimSpace(sc.Text()) == "" {
					continue
				}
				e, err := Parse(tc.client, sc.Bytes(), now)
				if err != nil {
					t.Fatalf("Parse(%s): %v", sc.Text(), err)
				}
				got = append(got, e)
			}
			if len(got) != len(tc.want) {
				t.Fatalf("%d events, want %d: %+v", len(got), len(tc.want), got)
			}
			var tools []hook.Event
			for i, e := range got {
				if e.Kind != tc.want[i] {
					t.Errorf("event %d (%s) is %s, want %s", i, e.Name, e.Kind, tc.want[i])
				}
				if e.Session == "" || e.Client != tc.client || !e.Time.Equal(now) {
					t.Errorf("event %d = %+v: want session, client and time", i, e)
				}
				if e.Kind == hook.Tool {
					tools = append(tools, e)
				}
			}
			if len(tools) != 2 || tools[0].Input == "" || tools[0].Input == tools[1].Input || tools[0].Tool != tools[1].Tool {
				t.Errorf("tool calls %+v: want the same tool with two different input hashes", tools)
			}
		})
	}
}

func TestParse(t *testing.T) {
	now := time.Date(2026, 11, 25, 13, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name, client, in string
		kind             hook.Kind
		detail, tool     string
		err              string
	}{
		{"stop failure", ClaudeCode, `{"hook_event_name":"StopFailure","session_id":"s","error":"rate_limit","error_details":"429 retry after 30s"}`, hook.Failure, "rate_limit", "", ""},
		{"permission request", ClaudeCode, `{"hook_event_name":"PermissionRequest","session_id":"s","tool_name":"Bash","tool_input":{"command":"rm x"}}`, hook.Ask, "permission", "Bash", ""},
		{"permission prompt", ClaudeCode, `{"hook_event_name":"Notification","notification_type":"permission_prompt","message":"Claude needs your permission"}`, hook.Ask, "permission_prompt", "", ""},
		{"idle prompt is not a question", ClaudeCode, `{"hook_event_name":"Notification","notification_type":"idle_prompt","message":"waiting"}`, hook.Other, "idle_prompt", "", ""},
		{"gemini tool permission", Gemini, `{"hook_event_name":"Notification","notification_type":"ToolPermission","message":"approve?"}`, hook.Ask, "ToolPermission", "", ""},
		{"a question tool", ClaudeCode, `{"hook_event_name":"PreToolUse","tool_name":"AskUserQuestion","tool_input":{"questions":[]}}`, hook.Ask, "question", "AskUserQuestion", ""},
		{"codex turn", Codex, `{"type":"agent-turn-complete","thread-id":"t","turn-id":"1","input-messages":["hi"],"last-assistant-message":"done"}`, hook.TurnEnd, "", "", ""},
		{"agy invocation", Agy, `{"hook_event_name":"PreInvocation"}`, hook.TurnStart, "", "", ""},
		{"unknown event", Gemini, `{"hook_event_name":"BeforeModel"}`, hook.Other, "", "", ""},
		{"control characters", ClaudeCode, "{\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Ba\\u001b[2Jsh\"}", hook.Tool, "", "Ba[2Jsh", ""},
		{"no event", ClaudeCode, `{"session_id":"s"}`, "", "", "", "no event name"},
		{"not JSON", ClaudeCode, `{`, "", "", "", "hook input from claude-code"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e, err := Parse(tc.client, []byte(tc.in), now)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("Parse = %+v, %v; want error %q", e, err, tc.err)
				}
				return
			}
			if err != nil || e.Kind != tc.kind || e.Detail != tc.detail || e.Tool != tc.tool {
				t.Fatalf("Parse = %+v, %v; want kind %s detail %q tool %q", e, err, tc.kind, tc.detail, tc.tool)
			}
		})
	}
}

func TestParseTurnEnd(t *testing.T) {
	now := time.Date(2026, 11, 25, 13, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		client, in string
		ghost      bool
		transcript string
	}{
		{ClaudeCode, `{"hook_event_name":"Stop","transcript_path":"/h/.claude/projects/p/s.jsonl","last_assistant_message":" [IDLE]\n"}`, true, "/h/.claude/projects/p/s.jsonl"},
		{ClaudeCode, `{"hook_event_name":"Stop","transcript_path":"/t.jsonl","last_assistant_message":"Wrote the chapter. [IDLE]"}`, false, "/t.jsonl"},
		{Gemini, `{"hook_event_name":"AfterAgent","transcript_path":"/g.jsonl","prompt_response":"[IDLE]"}`, true, "/g.jsonl"},
		{Codex, `{"type":"agent-turn-complete","last-assistant-message":"HEARTBEAT_OK"}`, true, ""},
		{ClaudeCode, `{"hook_event_name":"PreToolUse","tool_name":"Bash","transcript_path":"/t.jsonl","last_assistant_message":"[IDLE]"}`, false, ""},
	} {
		e, err := Parse(tc.client, []byte(tc.in), now)
		if err != nil || e.Ghost != tc.ghost || e.Transcript != tc.transcript {
			t.Errorf("Parse(%s) = ghost %v transcript %q (%v), want %v %q", tc.in, e.Ghost, e.Transcript, err, tc.ghost, tc.transcript)
		}
		if b, _ := json.Marshal(e); strings.Contains(string(b), "chapter") {
			t.Errorf("the event keeps the agent's words: %s", b)
		}
	}
}

// Claude Code's PermissionDenied (its auto mode's classifier said no) is a
// refused call of the tool, its input not kept.
func TestParsePermissionDenied(t *testing.T) {
	t0 := time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC)
	e, err := Parse(ClaudeCode, []byte(`{"session_id":"s","hook_event_name":"PermissionDenied","tool_name":"Bash","tool_input":{"command":"rm -rf /"},"tool_use_id":"toolu_1","reason":"auto mode"}`), t0)
	if err != nil || e.Kind != hook.Refused || e.Tool != "Bash" || e.Input != "" {
		t.Fatalf("Parse(PermissionDenied) = %+v, %v: want a refused Bash call, its input not kept", e, err)
	}
}
