package clients_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ai-heart/ai-heart/internal/clients"
	"github.com/ai-heart/ai-heart/internal/clients/client"
)

// wired is a settings file in which heart-hook runs on every event init
// wires for the client adapter a, but skip.
func wired(t *testing.T, a clients.Adapter, file string, skip string) map[string]any {
	t.Helper()
	hooks := map[string]any{}
	for _, f := range a.Setup().Files {
		if f.Root != client.Workspace || f.Path != file {
			continue
		}
		for _, e := range f.Edits {
			if g, ok := e.(client.HookGroups); ok {
				for _, ev := range g.Events {
					if ev.Name != skip {
						hooks[ev.Name] = []any{map[string]any{"matcher": "*", "hooks": []any{map[string]any{"type": "command", "command": "/opt/ai-heart/heart-hook --client x"}}}}
					}
				}
			}
		}
	}
	if len(hooks) == 0 {
		t.Fatalf("no hooks wired in %s", file)
	}
	return map[string]any{"hooks": hooks}
}

func write(t *testing.T, ws, file string, body []byte) {
	t.Helper()
	p := filepath.Join(ws, filepath.FromSlash(file))
	os.MkdirAll(filepath.Dir(p), 0o755)
	if err := os.WriteFile(p, body, 0o644); err != nil {
		t.Fatal(err)
	}
}

func said(sw []clients.Switch) string {
	var s []string
	for _, x := range sw {
		s = append(s, x.File+" ("+x.Setting+")")
	}
	return strings.Join(s, ", ")
}

// TestHooksOffNotHidden: a settings file that turns the hooks off is
// reported however it is written: padded past what is read (the file is
// reported as not read whole), with a lower-case twin of the key (flagged),
// with Gemini CLI's comments (stripped, as Gemini CLI does); a file that
// does not parse is reported.
func TestHooksOffNotHidden(t *testing.T) {
	j := func(v any) []byte { b, _ := json.Marshal(v); return b }
	claude := clients.Lookup(ClaudeCode)
	gem := clients.Lookup(Gemini)
	full := wired(t, claude, ".claude/settings.json", "")
	gfull := wired(t, gem, ".gemini/settings.json", "")
	for _, c := range []struct {
		name, client, file, body string
		says                     []string
	}{
		{"padded", ClaudeCode, ".claude/settings.local.json", `{"disableAllHooks": true, "pad": "` + strings.Repeat("x", 1100<<10) + `"}`, []string{".claude/settings.local.json", "1 MiB"}},
		{"a lower-case twin", ClaudeCode, ".claude/settings.local.json", `{"disableAllHooks": true, "disableallhooks": false}`, []string{"disableallhooks"}},
		{"not JSON", ClaudeCode, ".claude/settings.local.json", `{"disableAllHooks": true,}`, []string{".claude/settings.local.json", "cannot be parsed"}},
		{"a key twice", ClaudeCode, ".claude/settings.local.json", `{"disableAllHooks": true, "disableAllHooks": false}`, []string{"disableAllHooks"}},
		{"a comment", Gemini, ".gemini/settings.json", "// the agent's note\n{\"hooksConfig\": /* off */ {\"enabled\": false}, \"x\": \"a // b /* c */\"}", []string{"hooksConfig.enabled: false"}},
		{"ENABLED", Gemini, ".gemini/settings.json", `{"hooksConfig": {"ENABLED": false}}`, []string{"ENABLED"}},
	} {
		ws := t.TempDir()
		if c.client == ClaudeCode {
			write(t, ws, ".claude/settings.json", j(full))
		} else {
			write(t, ws, ".gemini/settings.json", j(gfull))
		}
		write(t, ws, c.file, []byte(c.body))
		got := said(clients.HooksOffIn(ws, c.client))
		for _, s := range c.says {
			if !strings.Contains(got, s) {
				t.Errorf("%s: hooks off %q, want it to say %q", c.name, got, s)
			}
		}
	}
	// The files init writes, untouched, turn nothing off.
	ws := t.TempDir()
	write(t, ws, ".claude/settings.json", j(full))
	write(t, ws, ".gemini/settings.json", j(gfull))
	for _, name := range []string{ClaudeCode, Gemini, ""} {
		if got := clients.HooksOffIn(ws, name); len(got) != 0 {
			t.Errorf("%q: init's files: %s", name, said(got))
		}
	}
}

// TestHookEventGone: heart-hook taken off one event init wired (Claude
// Code's PreToolUse: the budget gate; Gemini CLI's BeforeTool) is
// reported, naming the event; the client must be known.
func TestHookEventGone(t *testing.T) {
	j := func(v any) []byte { b, _ := json.Marshal(v); return b }
	for _, c := range []struct{ client, file, event string }{
		{ClaudeCode, ".claude/settings.json", "PreToolUse"},
		{Gemini, ".gemini/settings.json", "BeforeTool"},
	} {
		ws := t.TempDir()
		write(t, ws, c.file, j(wired(t, clients.Lookup(c.client), c.file, c.event)))
		got := said(clients.HooksOffIn(ws, c.client))
		if !strings.Contains(got, c.file) || !strings.Contains(got, "hooks."+c.event) {
			t.Errorf("%s without %s: hooks off %q, want the file and hooks.%s", c.client, c.event, got, c.event)
		}
		// Another program in its place is no heart-hook either.
		s := wired(t, clients.Lookup(c.client), c.file, "")
		s["hooks"].(map[string]any)[c.event] = []any{map[string]any{"matcher": "*", "hooks": []any{map[string]any{"type": "command", "command": "true"}}}}
		write(t, ws, c.file, j(s))
		if got := said(clients.HooksOffIn(ws, c.client)); !strings.Contains(got, "hooks."+c.event) {
			t.Errorf("%s with %s running true: hooks off %q", c.client, c.event, got)
		}
	}
}
