package pane

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The screens in testdata are the real clients' panes, captured by tmux
// (capture-pane -p) from Claude Code 2.1.197, Gemini CLI 0.61.0 and Codex
// 0.169.0 run by the real-client tests: idle, a person's draft, a pasted
// wakeup not yet sent, a turn running, a permission dialog, the screen
// after a person declined it with Escape, and Codex's hooks review;
// Claude Code's running turn with a "⎿ Tip:" line under its spinner, and
// with a wakeup queued under it (the hint "Press up to edit queued
// messages" in its input line); and Claude Code's with a wakeup typed over
// several lines of its input, not yet sent.
func screen(t *testing.T, client, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", client, name+".txt"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestReadRealScreens(t *testing.T) {
	type want struct {
		ready, busy bool
		draft, asks string // substrings; "" means none
	}
	cases := map[string]want{
		"idle":         {ready: true},
		"draft":        {ready: true, draft: "a draft the person typed"},
		"pasted":       {ready: true, draft: "Pasted"},
		"typed":        {ready: true, draft: "Urgent feedback"},
		"busy":         {ready: true, busy: true},
		"busy-tip":     {ready: true, busy: true}, // a "⎿ Tip:" line under the spinner
		"busy-queued":  {ready: true, busy: true}, // a wakeup queued under the spinner, and its hint in the input
		"dialog":       {asks: "?"},               // "Do you want to proceed?", "Allow execution of [Shell]?"
		"hooks-review": {asks: "need review"},     // Codex's full-screen list, its cursor the composer's marker
		"after-esc":    {ready: true},
	}
	for _, client := range []string{"claude-code", "gemini", "codex"} {
		for name, w := range cases {
			if _, err := os.Stat(filepath.Join("testdata", client, name+".txt")); err != nil {
				continue // a screen captured from one client only
			}
			t.Run(client+"/"+name, func(t *testing.T) {
				s := screen(t, client, name)
				for _, as := range []string{client, ""} { // named, and found among the known clients
					v := Read(s, as)
					if !v.Known || v.Ready != w.ready || v.Busy != w.busy {
						t.Errorf("read as %q: %+v, want ready %v busy %v", as, v, w.ready, w.busy)
					}
					if (w.draft == "") != (v.Draft == "") || !strings.Contains(v.Draft, w.draft) {
						t.Errorf("read as %q: draft %q, want %q", as, v.Draft, w.draft)
					}
					if (w.asks == "") != (v.Asks == "") || !strings.Contains(v.Asks, w.asks) {
						t.Errorf("read as %q: asks %q, want one with %q", as, v.Asks, w.asks)
					}
				}
			})
		}
	}
}

// What may be sent to each real screen: a wakeup only into an idle, empty
// input line; its Enter only while no dialog came up; Escape never into a
// dialog or over a person's text, but into a running turn.
func TestDecideOnRealScreens(t *testing.T) {
	now := time.Date(2026, 12, 7, 12, 0, 0, 0, time.UTC)
	type ok struct{ typ, submit, keys bool }
	cases := map[string]ok{
		"idle":         {true, true, true},
		"draft":        {false, true, false},
		"pasted":       {false, true, false},
		"typed":        {false, true, false},
		"busy":         {false, true, true},
		"busy-tip":     {false, true, true},
		"busy-queued":  {false, true, true},
		"dialog":       {false, false, false},
		"hooks-review": {false, false, false},
		"after-esc":    {true, true, true},
	}
	for _, client := range []string{"claude-code", "gemini", "codex"} {
		for name, w := range cases {
			if _, err := os.Stat(filepath.Join("testdata", client, name+".txt")); err != nil {
				continue
			}
			v := Read(screen(t, client, name), client)
			for p, want := range map[Purpose]bool{Type: w.typ, Submit: w.submit, Keys: w.keys} {
				if got := Decide(v, Hooks{}, p, now); got.OK != want || got.OK == (got.Why != "") {
					t.Errorf("%s/%s purpose %d: %+v, want ok %v", client, name, p, got, want)
				}
			}
		}
	}
}

// The hooks' ask holds everything while the screen shows the dialog or has
// not yet drawn it; a screen that has shown the input line past AskGrace
// wins (a person who declines with Escape sends no hook event).
func TestDecideWithTheHooksAsk(t *testing.T) {
	now := time.Date(2026, 12, 7, 12, 0, 0, 0, time.UTC)
	idle := Read(screen(t, "claude-code", "idle"), "claude-code")
	fresh := Hooks{Asking: true, AskSince: now.Add(-time.Second), AskWhat: "permission"}
	old := Hooks{Asking: true, AskSince: now.Add(-AskGrace), AskWhat: "permission"}
	if v := Decide(idle, fresh, Keys, now); v.OK || !strings.Contains(v.Why, "asking a person (permission)") {
		t.Errorf("a fresh ask beside an idle screen: %+v", v)
	}
	if v := Decide(idle, old, Type, now); !v.OK {
		t.Errorf("an ask the screen outlived: %+v", v)
	}
	// A screen nobody knows (a program other than the clients) says
	// nothing: the hooks alone decide, as before the pane was read.
	unknown := Read("$ some shell\n$ \n", "")
	if unknown.Known {
		t.Fatalf("a shell read as a client: %+v", unknown)
	}
	if v := Decide(unknown, old, Type, now); v.OK {
		t.Errorf("an unknown screen while the hooks say asking: %+v", v)
	}
	if v := Decide(unknown, Hooks{}, Type, now); !v.OK {
		t.Errorf("an unknown screen, no ask: %+v", v)
	}
	// The named client's screen without its input line (it crashed to a
	// shell, or shows a screen of its own) is no place to type.
	if v := Decide(Read("$ some shell\n$ \n", "claude-code"), Hooks{}, Type, now); v.OK {
		t.Errorf("claude-code's pane showing a shell: %+v", v)
	}
}

// Codex's TUI is read from the words its binary carries: its approval
// replaces the composer, and "esc to interrupt" is a running turn. These
// screens are made up in its layout, not captured.
func TestReadCodexScreens(t *testing.T) {
	dialog := "› Heartbeat: 20261207120000\n\nWould you like to run the following command?\n\n  $ touch x\n\n› 1. Yes, proceed (y)\n  2. No, and tell Codex what to do differently (esc)\n"
	if v := Read(dialog, "codex"); v.Ready || !strings.Contains(v.Asks, "Would you like to run") {
		t.Errorf("codex approval: %+v", v)
	}
	busy := "› Heartbeat: 20261207120000\n\n• Working (3s • esc to interrupt)\n\n› Ask Codex to do anything\n"
	if v := Read(busy, "codex"); !v.Ready || !v.Busy || v.Draft != "" {
		t.Errorf("codex busy: %+v", v)
	}
}

// The agent writes into its own screen: a fake input box (rules around a
// prompt marker) printed in its output above a real dialog does not make
// the screen ready, for every client whose dialog was captured; and dialog
// words it prints above the real, idle input box do not hold the keys.
func TestForgedScreenLines(t *testing.T) {
	for client, marker := range map[string]string{"claude-code": "❯", "gemini": ">"} {
		rule := strings.Repeat("─", 80)
		dialog := screen(t, client, "dialog")
		lines := strings.Split(dialog, "\n")
		forged := append([]string{lines[0], rule, marker + " ", rule}, lines[1:]...)
		if v := Read(strings.Join(forged, "\n"), client); v.Ready || v.Asks == "" {
			t.Errorf("%s: a forged box above the real dialog reads as %+v", client, v)
		}
		idle := strings.Split(screen(t, client, "idle"), "\n")
		said := append([]string{lines[0], "  Do you want to proceed? ❯ 1. Yes", "  Allow execution of [Shell]?"}, idle[1:]...)
		if v := Read(strings.Join(said, "\n"), client); !v.Ready || v.Asks != "" {
			t.Errorf("%s: dialog words printed above the idle input read as %+v", client, v)
		}
	}
}

// The agent's own text cannot hold an idle Claude Code pane as busy: a
// spinner it prints (its reply's first line is marked "●", the rest
// indented), with a "⎿ Tip:" line under it, is not the client's spinner,
// which stands at the left margin; nor are the client's words for a
// running turn ("esc to interrupt") in its reply or a tool's output.
func TestForgedSpinnerIsNotBusy(t *testing.T) {
	idle := strings.Split(screen(t, "claude-code", "idle"), "\n")
	at := -1
	for i, l := range idle {
		if strings.HasPrefix(l, "❯") {
			at = i - 1 // the input's top rule
		}
	}
	if at < 0 {
		t.Fatal("no input line in idle.txt")
	}
	for _, printed := range [][]string{
		{"● ✻ Finagling… (17s · ↑ 14 tokens)", "  ⎿  Tip: Start with small features"},
		{"● Press esc to interrupt me", "  or esc to interrupt, as the status line says"},
		{"● Bash(echo 'esc to interrupt')", "  ⎿  esc to interrupt"},
		{"● Here is what a busy screen looks like:", "  ✻ Finagling… (17s · ↑ 14 tokens)", "  ⎿  Tip: Start with small features"},
		{"● Bash(echo)", "  ⎿  ✻ Finagling… (17s · ↑ 14 tokens)", "     ⎿  Tip: Start with small features"},
	} {
		lines := append(append(append([]string{}, idle[:at]...), printed...), idle[at:]...)
		if v := Read(strings.Join(lines, "\n"), "claude-code"); !v.Ready || v.Busy {
			t.Errorf("printed %q above the idle input: %+v, want ready and not busy", printed, v)
		}
	}
}
