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
	"io"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Text returns s with every control character but newline and tab (C0,
// DEL, C1, and the bidirectional overrides that reorder what is shown)
// written out as an escape such as \x1b or \u202e. So is every byte that is
// not UTF-8: a raw 0x9b is CSI to a terminal that reads 8-bit controls.
func Text(s string) string { return clean(s, true) }

// Line is Text for one line: newlines and tabs are escaped too.
func Line(s string) string { return clean(s, false) }

func clean(s string, multiline bool) string {
	if utf8.ValidString(s) && strings.IndexFunc(s, func(r rune) bool { return unsafe(r, multiline) }) < 0 {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		raw := s[i : i+size]
		i += size
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, raw[0]) // not UTF-8
		case !unsafe(r, multiline):
			b.WriteString(raw)
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

// Writer returns a writer that passes everything through Text, for output
// that reaches a terminal (watchdog status, the demo's timeline). A rune
// split across two writes is held until its end comes (one that never comes
// is not written).
func Writer(w io.Writer) io.Writer { return &writer{w: w} }

type writer struct {
	w    io.Writer
	held []byte // the start of a rune the last write ended in
}

func (w *writer) Write(p []byte) (int, error) {
	b := append(w.held, p...)
	w.held = nil
	if cut := partialTail(b); cut < len(b) {
		w.held = append([]byte(nil), b[cut:]...)
		b = b[:cut]
	}
	if _, err := io.WriteString(w.w, Text(string(b))); err != nil {
		return 0, err
	}
	return len(p), nil
}

// partialTail is where b's last rune starts when b ends inside one that
// may still be completed; else len(b).
func partialTail(b []byte) int {
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax+1; i-- {
		if utf8.RuneStart(b[i]) {
			if !utf8.FullRune(b[i:]) {
				return i
			}
			break
		}
	}
	return len(b)
}
