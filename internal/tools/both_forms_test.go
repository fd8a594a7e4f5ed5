package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/ai-heart/ai-heart/internal/state"

	"github.com/ai-heart/ai-heart/internal/lang"
	"github.com/ai-heart/ai-heart/internal/testutil"
)

// Claude Code hands its model a tool's structuredContent; Gemini CLI hands
// it the text. So whatever the agent needs must be in both forms: every
// value of the structured reply is also in the text (the ID to use, paths,
// notes, notices), and every notice in the text is in the structured reply.
// Only the fields below may be left out of the text, each for its reason.
var textMayOmit = map[string]string{
	"rules":         "start_deep_work: the text explains the mode in its own words",
	"activity_type": "the text names the type in the workspace's language (観測 for observation)",
	"declared_at":   "a timestamp the text gives as a clock time",
	"deadline":      "a timestamp the text gives as a clock time",
	"modified_at":   "a timestamp; the text lists the files by path and size",
	"content":       "file bodies: the text carries them, reflowed",
	"started_at":    "a timestamp the text gives as a clock time",
	"ended_at":      "a timestamp the text gives as a clock time",
	"latest_log_at": "a timestamp; the text names the log's path",
	"pulse_at":      "a timestamp; the text gives the pulse's age",
	"thresholds":    "get_heartbeat_elapsed_time: the text names the crossed thresholds; the whole table is for programs",
	"work":          "get_heartbeat_elapsed_time: an enum the text says in a sentence",
	"not_judged":    "said in the agent's language",
	"stretch_start": "a timestamp the text gives as a clock time",
}

// omitted reports whether a leaf may be left out of the text.
func omitted(key, path string) bool {
	if strings.HasSuffix(key, "_seconds") {
		return true // the text gives it as a duration (4m30s)
	}
	for k := range textMayOmit {
		if key == k || strings.HasPrefix(path, "."+k+"[") || strings.HasPrefix(path, "."+k+".") {
			return true
		}
	}
	return false
}

func TestEveryToolReplyCarriesTheSameFactsInTextAndStructure(t *testing.T) {
	for _, l := range []lang.Lang{lang.English, lang.Japanese} {
		t.Run(string(l), func(t *testing.T) { bothForms(t, l) })
	}
}

func bothForms(t *testing.T, l lang.Lang) {
	e := newEnv(t)
	e.tl.Lang = l
	e.write("themebox/002_tides.md", "# Tides\nWhy two a day?\n", e.now())
	e.write("feedbackbox/001_note.md", "Please cite the tide tables.\n", e.now())
	// A watchdog that has just started: nothing is due yet.
	e.writeStateWith(t, state.State{StartedAt: e.now(), PulseAt: e.now(), Notices: []string{"[warning] introspection: Write an introspection soon.", "Feedback waits in feedbackbox/001_note.md."}})
	c, err := client.NewInProcessClient(NewServer(e.tl, "test"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx := context.Background()
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	if _, err := c.Initialize(ctx, init); err != nil {
		t.Fatal(err)
	}

	const theme = `"theme_start_id":"20250102030405","theme_directory_part":"tides"`
	calls := []struct{ tool, args string }{
		{"preview_next_theme", `{}`},
		{"start_theme", `{"theme_name":"Tides","theme_directory_part":"tides","reason":"from the themebox","themebox_file":"002_tides.md"}`},
		{"create_activity_log", `{"activity_type":"observation","activity_content":["read about the Moon"],` + theme + `}`},
		{"checkpoint", `{"current_activity":"sketching the bulges"}`},
		{"start_deep_work", `{"mode":"strict","activity_description":"checking the tide tables","planned_duration_minutes":30}`},
		{"get_heartbeat_elapsed_time", `{}`},
		{"create_theme_expert_context", `{` + ctxArgs + `,` + theme + `}`},
		{"get_latest_theme_context", `{` + theme + `}`},
		{"check_theme_status", `{` + theme + `}`},
		{"list_theme_artifacts", `{` + theme + `}`},
		{"get_latest_activity_log", `{` + theme + `,"num_logs":2}`},
		{"check_and_process_item", `{}`},
		{"report_tool_usage", `{"tool_id":"gemini.google.search","status":"quota_exceeded"}`},
		{"end_theme", `{` + theme + `,"reason":"answered","achievements":["a diagram"]}`},
	}
	seen := map[string]bool{}
	for i, call := range calls {
		e.clk.Advance(2 * time.Second)
		seen[call.tool] = true
		t.Run(fmt.Sprintf("%02d_%s", i, call.tool), func(t *testing.T) {
			req := mcp.CallToolRequest{}
			req.Params.Name = call.tool
			if err := json.Unmarshal([]byte(call.args), &req.Params.Arguments); err != nil {
				t.Fatal(err)
			}
			res, err := c.CallTool(ctx, req)
			if err != nil {
				t.Fatal(err)
			}
			text := textOf(res)
			if res.IsError {
				t.Fatalf("isError: %s", text)
			}
			if l == lang.Japanese {
				// The agent's own words and the fixtures are English; every
				// word of mcp-heart's is Japanese.
				allowed := []string{"Write an introspection soon.", "Feedback waits in feedbackbox/001_note.md.", "Please cite the tide tables.", "Why two a day?"}
				for _, c := range calls {
					var args map[string]any
					json.Unmarshal([]byte(c.args), &args)
					leaves("", args, func(_, _, v string) { allowed = append(allowed, v) })
				}
				sort.Slice(allowed, func(i, j int) bool { return len(allowed[i]) > len(allowed[j]) })
				testutil.CheckJapanese(t, call.tool+" reply", text, allowed...)
			}
			var structured any
			b, _ := json.Marshal(res.StructuredContent)
			json.Unmarshal(b, &structured)
			// Claude Code's model reads only the structure: the text, with
			// every instruction and reason it gives, leads it.
			if m, ok := structured.(map[string]any); !ok || m["text"] != text {
				t.Errorf("structuredContent does not carry the reply's text:\n%.300s", b)
			}
			var missing []string
			leaves("", structured, func(key, path, v string) {
				if omitted(key, path) || v == "" {
					return
				}
				if !strings.Contains(text, v) && !saysTime(text, v) {
					missing = append(missing, fmt.Sprintf("%s=%q", path, v))
				}
			})
			if len(missing) > 0 {
				sort.Strings(missing)
				t.Errorf("the text leaves out what structuredContent says:\n  %s\ntext:\n%s", strings.Join(missing, "\n  "), text)
			}
			// The notices go both ways: the text's are all in the structure.
			for _, n := range []string{"Write an introspection soon.", "Feedback waits in feedbackbox/001_note.md."} {
				if strings.Contains(text, n) && !strings.Contains(string(b), n) {
					t.Errorf("notice %q is in the text only", n)
				}
			}
		})
	}
	for _, d := range e.tl.Definitions() {
		if !seen[d.Tool.Name] {
			t.Errorf("tool %s is not covered", d.Tool.Name)
		}
	}
}

// leaves calls f with each string, number and boolean leaf of v, with the
// key it sits under and its path.
func leaves(path string, v any, f func(key, path, value string)) {
	key := path[strings.LastIndex(path, ".")+1:]
	if i := strings.Index(key, "["); i >= 0 {
		key = key[:i]
	}
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			leaves(path+"."+k, x, f)
		}
	case []any:
		for i, x := range v {
			leaves(fmt.Sprintf("%s[%d]", path, i), x, f)
		}
	case string:
		f(key, path, v)
	case float64:
		f(key, path, fmt.Sprint(v))
	}
}

func textOf(r *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range r.Content {
		if t, ok := c.(mcp.TextContent); ok {
			b.WriteString(t.Text)
		}
	}
	return b.String()
}

// saysTime reports whether text says the RFC 3339 time v in the one local
// form of a Japanese text, 15:04:05.
func saysTime(text, v string) bool {
	at, err := time.Parse(time.RFC3339, v)
	return err == nil && strings.Contains(text, at.Format("15:04:05"))
}
