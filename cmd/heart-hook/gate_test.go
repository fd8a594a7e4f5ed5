package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/hook"
)

const spentReason = "today's budget is spent; write your activity log and stop"

// writeGate writes the workspace's budget gate as the watchdog does.
func writeGate(t *testing.T, ws string, g hook.Gate) {
	t.Helper()
	b, _ := json.Marshal(g)
	p := filepath.Join(ws, filepath.FromSlash(hook.GateFile))
	os.MkdirAll(filepath.Dir(p), 0o755)
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func closedGate(now time.Time) hook.Gate {
	return hook.Gate{Spent: true, Written: now, Expires: now.Add(2 * time.Minute), Until: now.Add(10 * time.Hour), Reason: spentReason}
}

// TestHookDeniesWhenTheBudgetIsSpent: with the watchdog's gate closed, the
// real binary refuses a client's pre-tool call in that client's own
// decision format with the reason, and lets mcp-heart's tools through
// (the real mcp-heart, registered in the client's file). A stale, garbled
// or missing gate allows; a FIFO in its place refuses at once, and never
// blocks.
func TestHookDeniesWhenTheBudgetIsSpent(t *testing.T) {
	for _, c := range []struct {
		client, event, tool, heartTool string
		denied                         func(out map[string]any) string // the reason, "" if not a denial
	}{
		{"claude-code", "PreToolUse", "Bash", "mcp__mcp-heart__create_activity_log", hookSpecificDeny},
		// Codex 0.169 names mcp-heart's tools with the server's "-" made "_".
		{"codex", "PreToolUse", "Bash", "mcp__mcp_heart__create_activity_log", hookSpecificDeny},
		{"gemini", "BeforeTool", "run_shell_command", "mcp_mcp-heart_create_activity_log", func(out map[string]any) string {
			if out["decision"] != "deny" {
				return ""
			}
			r, _ := out["reason"].(string)
			return r
		}},
	} {
		t.Run(c.client, func(t *testing.T) {
			ws := t.TempDir()
			for _, h := range heartClients {
				if h.client == c.client {
					p := filepath.Join(ws, filepath.FromSlash(h.file))
					os.MkdirAll(filepath.Dir(p), 0o755)
					os.WriteFile(p, []byte(h.register(map[string]server{"mcp-heart": {command: filepath.Join(binDir, "mcp-heart")}})), 0o644)
				}
			}
			fifo := false
			call := func(tool string) string {
				payload := `{"hook_event_name":"` + c.event + `","session_id":"s","tool_name":"` + tool + `","tool_input":{"command":"ls"}}`
				code, out, errs := runHook(t, payload, "--client", c.client, "--workspace", ws)
				if code != 0 || (errs != "") != fifo {
					t.Errorf("exit %d, stderr %q", code, errs)
				}
				return out
			}
			if out := call(c.tool); out != "" {
				t.Fatalf("no gate: stdout %q, want nothing (allowed)", out)
			}
			now := time.Now()
			writeGate(t, ws, closedGate(now))
			out := call(c.tool)
			var got map[string]any
			if err := json.Unmarshal([]byte(out), &got); err != nil || c.denied(got) != spentReason {
				t.Fatalf("closed gate: stdout %q, want %s's denial with the reason", out, c.client)
			}
			if out := call(c.heartTool); out != "" {
				t.Fatalf("mcp-heart's tool: stdout %q, want it allowed", out)
			}
			if n := len(spool(t, ws)); n != 3 {
				t.Errorf("%d spool events, want every call recorded (3)", n)
			}
			for name, g := range map[string]hook.Gate{
				"stale":       {Spent: true, Written: now.Add(-2 * time.Hour), Expires: now.Add(-time.Hour), Until: now.Add(time.Hour), Reason: spentReason},
				"far expiry":  {Spent: true, Written: now, Expires: now.Add(48 * time.Hour), Until: now.Add(time.Hour), Reason: spentReason},
				"renewed":     {Spent: true, Written: now, Expires: now.Add(time.Minute), Until: now.Add(-time.Second), Reason: spentReason},
				"not spent":   {Written: now, Expires: now.Add(time.Minute), Until: now.Add(time.Hour), Reason: spentReason},
				"from future": {Spent: true, Written: now.Add(time.Hour), Expires: now.Add(time.Hour + time.Minute), Until: now.Add(2 * time.Hour), Reason: spentReason},
			} {
				writeGate(t, ws, g)
				if out := call(c.tool); out != "" {
					t.Errorf("%s gate: stdout %q, want allowed", name, out)
				}
			}
			p := filepath.Join(ws, filepath.FromSlash(hook.GateFile))
			os.WriteFile(p, []byte(`{"spent": tru`), 0o644)
			if out := call(c.tool); out != "" {
				t.Errorf("garbled gate: stdout %q, want allowed", out)
			}
			os.Remove(p)
			if err := syscall.Mkfifo(p, 0o644); err != nil {
				t.Fatal(err)
			}
			fifo = true
			done := make(chan string, 1)
			go func() { done <- call(c.tool) }()
			select {
			case out := <-done:
				var got map[string]any
				if err := json.Unmarshal([]byte(out), &got); err != nil || !strings.Contains(c.denied(got), "is a FIFO, not a file") {
					t.Errorf("FIFO gate: stdout %q, want a refusal saying what stands there", out)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("a FIFO gate blocks the hook")
			}
		})
	}
}

func hookSpecificDeny(out map[string]any) string {
	h, _ := out["hookSpecificOutput"].(map[string]any)
	if h["hookEventName"] != "PreToolUse" || h["permissionDecision"] != "deny" {
		return ""
	}
	r, _ := h["permissionDecisionReason"].(string)
	return r
}

// statusInput is Claude Code 2.1.197's status-line input as its builder
// makes it for a Claude.ai subscription whose API sent the
// anthropic-ratelimit-unified-5h-* and -7d-* headers (the rest trimmed).
func statusInput(five, seven float64, reset5, reset7 int64) string {
	return `{"session_id":"s","cwd":"/w","model":{"id":"claude-opus-4-7","display_name":"Opus"},"version":"2.1.197",` +
		`"cost":{"total_cost_usd":0.01},"rate_limits":{"five_hour":{"used_percentage":` + jsonNum(five) + `,"resets_at":` + jsonNum(float64(reset5)) +
		`},"seven_day":{"used_percentage":` + jsonNum(seven) + `,"resets_at":` + jsonNum(float64(reset7)) + `}}}`
}

func jsonNum(f float64) string { b, _ := json.Marshal(f); return string(b) }

// TestStatusline: as Claude Code's status line, the real binary prints the
// shares used, records the limits once per change, prints "heart: ok"
// where the input has none (an API key), and chains a status line of the
// user's own.
func TestStatusline(t *testing.T) {
	ws := t.TempDir()
	reset5 := time.Now().Add(2 * time.Hour).Unix()
	reset7 := time.Now().Add(72 * time.Hour).Unix()
	args := []string{"--client", "claude-code", "--statusline", "--workspace", ws}
	line := func(in string, extra ...string) string {
		t.Helper()
		code, out, errs := runHook(t, in, append(args, extra...)...)
		if code != 0 || errs != "" {
			t.Fatalf("exit %d, stderr %q", code, errs)
		}
		return out
	}
	if out := line(statusInput(41.6, 13, reset5, reset7)); out != "heart: 5h 42% · 7d 13%\n" {
		t.Fatalf("stdout %q", out)
	}
	line(statusInput(41.6, 13, reset5, reset7)) // the same: no new line in the spool
	line(statusInput(100, 13, reset5, reset7))
	var limits [][]hook.Limit
	for _, e := range spool(t, ws) {
		if e.Kind != hook.RateLimit {
			t.Fatalf("event %+v, want rate_limit", e)
		}
		limits = append(limits, e.Limits)
	}
	if len(limits) != 2 || limits[1][0].Window != "five_hour" || limits[1][0].Used != 100 || !limits[1][0].Resets.Equal(time.Unix(reset5, 0)) || limits[1][1].Window != "seven_day" {
		t.Fatalf("spool limits %+v, want two changes, the second five_hour at 100%% resetting at %v", limits, time.Unix(reset5, 0))
	}
	if out := line(`{"session_id":"s","model":{"id":"m"}}`); out != "heart: ok\n" {
		t.Fatalf("no rate limits: stdout %q", out)
	}
	if out := line(statusInput(50, 13, reset5, reset7), "--", "sh", "-c", `grep -q rate_limits && echo mine`); strings.TrimSpace(out) != "mine" {
		t.Fatalf("chained: stdout %q, want the user's status line's", out)
	}
}
