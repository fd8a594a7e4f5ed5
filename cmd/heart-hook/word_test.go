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

func writeWord(t *testing.T, ws string, w hook.Word) {
	t.Helper()
	b, _ := json.Marshal(w)
	p := filepath.Join(ws, filepath.FromSlash(hook.WordFile))
	os.MkdirAll(filepath.Dir(p), 0o755)
	os.Remove(p)
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// The watchdog's word reaches a turn busy in the client's own tools: the
// real binary hands it to the turn after a tool call, in the client's own
// format (Claude Code's and Gemini CLI's additionalContext), once per
// word, and its spool line says it did. A stale, garbled, FIFO or linked
// word says nothing and never blocks; Codex's hooks hand nothing.
func TestHookTellsTheRunningTurnOnce(t *testing.T) {
	const notice = "[warning] inactivity: No activity log or checkpoint for 6m. If you are still working, write a checkpoint."
	for _, c := range []struct{ client, event, hookName string }{
		{"claude-code", "PostToolUse", "PostToolUse"},
		{"gemini", "AfterTool", "AfterTool"},
	} {
		t.Run(c.client, func(t *testing.T) {
			ws := t.TempDir()
			now := time.Now()
			after := func() map[string]any {
				t.Helper()
				payload := `{"hook_event_name":"` + c.event + `","session_id":"s","tool_name":"Bash","tool_input":{"command":"ls"}}`
				code, out, errs := runHook(t, payload, "--client", c.client, "--workspace", ws)
				if code != 0 || errs != "" {
					t.Fatalf("exit %d, stderr %q", code, errs)
				}
				if strings.TrimSpace(out) == "" {
					return nil
				}
				var m map[string]any
				if err := json.Unmarshal([]byte(out), &m); err != nil {
					t.Fatalf("stdout %q: %v", out, err)
				}
				return m
			}
			told := func(m map[string]any) string {
				h, _ := m["hookSpecificOutput"].(map[string]any)
				if h == nil || h["hookEventName"] != c.hookName {
					return ""
				}
				s, _ := h["additionalContext"].(string)
				return s
			}
			if m := after(); m != nil {
				t.Fatalf("no word kept, yet the hook printed %v", m)
			}
			writeWord(t, ws, hook.Word{ID: "inactivity.warning.1", Text: notice, Written: now, Expires: now.Add(time.Minute)})
			if got := told(after()); got != notice {
				t.Fatalf("the turn was told %q, want the notice", got)
			}
			if m := after(); m != nil {
				t.Fatalf("the same word told twice: %v", m)
			}
			toldLines := 0
			for _, e := range spool(t, ws) {
				if e.Kind == hook.ToolDone && e.Detail == hook.ToldPrefix+"inactivity.warning.1" {
					toldLines++
				}
			}
			if toldLines != 1 {
				t.Fatalf("%d spool lines say the turn was told, want 1: %v", toldLines, spool(t, ws))
			}
			writeWord(t, ws, hook.Word{ID: "inactivity.error.1", Text: "[error] " + notice, Written: now, Expires: now.Add(time.Minute)})
			if got := told(after()); got != "[error] "+notice {
				t.Fatalf("a new word was not told: %q", got)
			}
			// What says nothing.
			writeWord(t, ws, hook.Word{ID: "stale", Text: notice, Written: now.Add(-time.Hour), Expires: now.Add(-time.Minute)})
			if m := after(); m != nil {
				t.Fatalf("an expired word was told: %v", m)
			}
			p := filepath.Join(ws, filepath.FromSlash(hook.WordFile))
			os.Remove(p)
			if err := syscall.Mkfifo(p, 0o644); err != nil {
				t.Fatal(err)
			}
			if m := after(); m != nil {
				t.Fatalf("a FIFO word was told: %v", m)
			}
			os.Remove(p)
			outside := filepath.Join(t.TempDir(), "word.json")
			b, _ := json.Marshal(hook.Word{ID: "outside", Text: notice, Written: now, Expires: now.Add(time.Minute)})
			os.WriteFile(outside, b, 0o644)
			if err := os.Symlink(outside, p); err != nil {
				t.Fatal(err)
			}
			if m := after(); m != nil {
				t.Fatalf("a word linked from outside the workspace was told: %v", m)
			}
			os.Remove(p)
			if err := os.WriteFile(p, []byte(`{"id":"garbled","text":`), 0o644); err != nil {
				t.Fatal(err)
			}
			if m := after(); m != nil {
				t.Fatalf("a garbled word was told: %v", m)
			}
			writeWord(t, ws, hook.Word{ID: "huge", Text: strings.Repeat("x", 17<<10), Written: now, Expires: now.Add(time.Minute)})
			if m := after(); m != nil {
				t.Fatal("a word over its size bound was told")
			}
		})
	}
	t.Run("codex", func(t *testing.T) {
		ws := t.TempDir()
		now := time.Now()
		writeWord(t, ws, hook.Word{ID: "w", Text: notice, Written: now, Expires: now.Add(time.Minute)})
		code, out, errs := runHook(t, `{"hook_event_name":"PostToolUse","session_id":"s","tool_name":"Bash","tool_input":{}}`, "--client", "codex", "--workspace", ws)
		if code != 0 || errs != "" || strings.TrimSpace(out) != "" {
			t.Fatalf("codex: exit %d, stdout %q, stderr %q", code, out, errs)
		}
	})
}

// The told marker is the agent's to plant too: a FIFO or a link in its
// place neither blocks the hook nor keeps the turn from being told (the
// marker then fails, and the word is told again at the next call, which
// only the agent's own turn reads).
func TestHookToldMarkerPlanted(t *testing.T) {
	for _, plant := range []string{"fifo", "link"} {
		t.Run(plant, func(t *testing.T) {
			ws := t.TempDir()
			now := time.Now()
			writeWord(t, ws, hook.Word{ID: "w1", Text: "[warning] inactivity: write a checkpoint.", Written: now, Expires: now.Add(time.Minute)})
			marker := filepath.Join(ws, filepath.FromSlash(hook.ToldFile))
			os.MkdirAll(filepath.Dir(marker), 0o755)
			switch plant {
			case "fifo":
				if err := syscall.Mkfifo(marker, 0o644); err != nil {
					t.Fatal(err)
				}
			case "link":
				outside := filepath.Join(t.TempDir(), "elsewhere")
				if err := os.Symlink(outside, marker); err != nil {
					t.Fatal(err)
				}
				defer func() {
					if _, err := os.Stat(outside); err == nil {
						t.Error("the hook wrote through a link out of the workspace")
					}
				}()
			}
			start := time.Now()
			code, out, _ := runHook(t, `{"hook_event_name":"PostToolUse","session_id":"s","tool_name":"Bash","tool_input":{}}`, "--client", "claude-code", "--workspace", ws)
			if code != 0 || !strings.Contains(out, "write a checkpoint") {
				t.Fatalf("exit %d, stdout %q: want the word told and exit 0", code, out)
			}
			if d := time.Since(start); d > 3*time.Second {
				t.Fatalf("the hook took %s beside a planted marker", d)
			}
		})
	}
}
