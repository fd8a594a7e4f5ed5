// Package termsafe makes text safe to type into or print on a terminal.
// Agent-written names and fields (file names, deep-work activities, pause
// and theme reasons) reach tmux panes, `watchdog status`, the console log
// and notifications; an escape sequence in them could end a bracketed paste
// early and type keys ("ESC[201~" then "!cmd" and CR runs a shell command in
// Gemini CLI), move the cursor or recolour a screen. Every such character
// is shown instead, escaped, so nothing is lost and nothing acts.
package termsafe

import (
	"fmt"
	"strings"
	"unicode"
)

// Text returns s with every control character but newline and tab (C0,
// DEL, C1, and the bidirectional overrides that reorder what is shown)
// written out as an escape such as \x1b or \u202e.
func Text(s string) string { return clean(s, true) }

// Line is Text for one line: newlines and tabs are escaped too.
func Line(s string) string { return clean(s, false) }

func clean(s string, multiline bool) string {
	if strings.IndexFunc(s, func(r rune) bool { return unsafe(r, multiline) }) < 0 {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case !unsafe(r, multiline):
			b.WriteRune(r)
		case r < 0x100:
			fmt.Fprintf(&b, `\x%02x`, r)
		default:
			fmt.Fprintf(&b, `\u%04x`, r)
		}
	}
	return b.String()
}

func unsafe(r rune, multiline bool) bool {
	if multiline && (r == '\n' || r == '\t') {
		return false
	}
	return unicode.IsControl(r) || bidi(r)
}

// bidi reports the embedding, override and isolate controls (U+202A-202E,
// U+2066-2069) and the marks that can make text read other than it is.
func bidi(r rune) bool {
	return (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) || r == 0x200e || r == 0x200f || r == 0x061c
}
