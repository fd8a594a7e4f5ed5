// Package pane reads a client's terminal screen as tmux captures it and
// decides whether the watchdog may type into it now. It is the one place
// that answers "may I type?" for every key the watchdog sends a pane: a
// wakeup, an urgent note, recovery's Escape.
package pane

import (
	"strings"
	"unicode/utf8"

	"github.com/ai-heart/ai-heart/internal/clients"
	"github.com/ai-heart/ai-heart/internal/clients/client"
)

// View is what a screen shows.
type View struct {
	// Known: the screen was recognised, as a client's input line or one of
	// its dialogs; an unknown screen says nothing either way.
	Known bool
	// Ready: the client's input line is on the screen, so no dialog, menu
	// or screen of its own stands in its place.
	Ready bool
	// Asks is the line of a dialog that asks a person, "" when none shows.
	Asks string
	// Draft is text in the input line other than the client's placeholder:
	// a person's unsent words, or a wakeup typed and not yet sent.
	Draft string
	// Busy: the client shows a turn running.
	Busy bool
}

// Read reads screen as the named client's; with no name (or one without a
// screen), as whichever known client's input line it shows.
func Read(screen, name string) View {
	// Claude Code writes a no-break space after its prompt marker.
	screen = strings.NewReplacer("\r", "", "\u00a0", " ").Replace(screen)
	lines := strings.Split(screen, "\n")
	if a := clients.Lookup(name); a != nil && a.Screen() != nil {
		v := read(lines, a.Screen())
		v.Known = true // its own client: a screen without its input line holds something else
		return v
	}
	var found View
	for _, a := range clients.All() {
		s := a.Screen()
		if s == nil {
			continue
		}
		switch v := read(lines, s); {
		case v.Ready:
			return v
		case found.Asks == "" && v.Asks != "" && !menuChoice(v.Asks):
			found = v // a client's own words for its dialog name it best
		}
	}
	if found.Asks == "" {
		if m := menu(lines); m != "" {
			found = View{Known: true, Asks: m}
		}
	}
	return found
}

// read reads lines as s describes a client's screen.
func read(lines []string, s *client.Screen) View {
	at := inputLine(lines, s)
	if at >= 0 && asks(lines[at+1:], s) != "" {
		at = -1 // a dialog below the last prompt line: that line is the conversation's
	}
	if at >= 0 && !s.Boxed && dialogWords(lines, s) != "" {
		// Without rules around the input, a full screen of the client's
		// own (a list whose cursor is the same marker) is told by its words.
		at = -1
	}
	if at < 0 {
		v := View{Asks: asks(lines, s)}
		v.Known = v.Asks != ""
		return v
	}
	v := View{Known: true, Ready: true}
	end := at + 1
	if s.Boxed {
		end = boxEnd(lines, at)
	}
	text := strings.TrimPrefix(strings.TrimSpace(strings.Trim(lines[at], " │")), s.Prompt)
	for _, l := range lines[at+1 : end] {
		text += "\n" + strings.Trim(l, " │")
	}
	text = strings.TrimSpace(text)
	if text != "" && !hasPrefix(text, s.Placeholders) {
		v.Draft = text
	}
	v.Busy = busy(lines[:at], s)
	return v
}

// inputLine is the index of the input line (the last line that starts with
// the prompt marker, between two rules where the client draws them), -1
// when the screen shows none.
func inputLine(lines []string, s *client.Screen) int {
	for i := len(lines) - 1; i >= 0; i-- {
		t := strings.TrimSpace(strings.Trim(lines[i], " │"))
		if t != s.Prompt && !strings.HasPrefix(t, s.Prompt+" ") || menuChoice(t) {
			continue // a menu's chosen line starts with the same marker
		}
		if !s.Boxed {
			return i
		}
		if i > 0 && rule(lines[i-1]) && boxEnd(lines, i) > i {
			return i
		}
	}
	return -1
}

// boxEnd is the index of the rule that closes the input begun at line at
// (text typed over several lines goes on until it), -1 when none does.
func boxEnd(lines []string, at int) int {
	for j := at + 1; j < len(lines); j++ {
		if rule(lines[j]) {
			return j
		}
	}
	return -1
}

// rule reports a horizontal rule: a line mostly of box-drawing dashes.
func rule(line string) bool {
	t := strings.TrimSpace(line)
	n := strings.Count(t, "─")
	return n >= 10 && n*2 >= utf8.RuneCountInString(t)
}

// busy reports a running turn in the lines above the input: the client's
// words for it, its spinner on the last line of text above the input's top
// rule, or its spinner heading the last block above the input (see
// spinnerBlock).
func busy(above []string, s *client.Screen) bool {
	n := 0
	for i := len(above) - 1; i >= 0 && n < 6; i-- {
		t := strings.TrimSpace(above[i])
		if t == "" || rule(t) {
			continue
		}
		n++
		low := strings.ToLower(t)
		for _, w := range s.Busy {
			if strings.Contains(low, w) && !replyLine(above[i]) {
				return true
			}
		}
		if n == 1 && s.Spinner != nil && s.Spinner.MatchString(t) {
			return true
		}
	}
	return spinnerBlock(above, s)
}

// spinnerBlock reports the client's spinner at the left margin with only
// indented lines between it and the input: Claude Code draws its turn's
// sub-lines ("⎿ Tip: …") and the messages queued for the turn's end
// there. The agent's own text cannot pass for it: Claude Code marks its
// first line "●" and indents the rest, so the first line at the margin
// above the input is the client's (its spinner, a tool call's "●", a
// prompt's "❯", "✻ Worked for 49s" once the turn is over).
func spinnerBlock(above []string, s *client.Screen) bool {
	if s.Spinner == nil {
		return false
	}
	for i := len(above) - 1; i >= 0 && i >= len(above)-maxBlock; i-- {
		l := strings.TrimRight(above[i], " ")
		t := strings.TrimSpace(l)
		if t == "" || rule(t) || strings.HasPrefix(l, "  ") {
			continue
		}
		return l == t && s.Spinner.MatchString(t)
	}
	return false
}

// replyLine reports a line of the agent's reply (or of a tool's output):
// begun with a client's reply marker ("●" Claude Code, "✦" Gemini CLI; not
// Codex's "•", which its working line blinks with) or indented under one.
// The client's own words for a running turn stand at the margin, or one
// space in; the agent's printed "esc to interrupt" must not hold an idle
// pane as busy.
func replyLine(l string) bool {
	if strings.HasPrefix(l, "  ") {
		return true
	}
	r, _ := utf8.DecodeRuneInString(strings.TrimSpace(l))
	return strings.ContainsRune("●✦", r)
}

// maxBlock is how many lines above the input a spinner's block may span
// (a long wakeup queued under it).
const maxBlock = 80

// asks is the first line of a dialog on the screen: one with the client's
// words for its dialogs, else a numbered menu's chosen line ("❯ 1. Yes"),
// else "" (a screen of another kind).
func asks(lines []string, s *client.Screen) string {
	if t := dialogWords(lines, s); t != "" {
		return t
	}
	return menu(lines)
}

// dialogWords is the first line with the client's words for a dialog.
func dialogWords(lines []string, s *client.Screen) string {
	for _, l := range lines {
		t := strings.TrimSpace(strings.Trim(l, " │"))
		for _, w := range s.Dialogs {
			if strings.Contains(t, w) {
				return t
			}
		}
	}
	return ""
}

// menu is a numbered menu's chosen line, "" when none shows.
func menu(lines []string) string {
	for _, l := range lines {
		if t := strings.TrimSpace(strings.Trim(l, " │")); menuChoice(t) {
			return t
		}
	}
	return ""
}

// menuChoice reports a menu's chosen line: a cursor, then "1. ".
func menuChoice(t string) bool {
	r, n := utf8.DecodeRuneInString(t)
	if !strings.ContainsRune("❯›●>▶", r) {
		return false
	}
	rest := strings.TrimSpace(t[n:])
	return len(rest) > 3 && rest[0] >= '1' && rest[0] <= '9' && rest[1] == '.' && rest[2] == ' '
}

func hasPrefix(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}
