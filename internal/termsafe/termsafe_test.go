package termsafe

import (
	"strings"
	"testing"
)

func TestText(t *testing.T) {
	tests := []struct{ name, in, text, line string }{
		{"plain", "note 1.md", "note 1.md", "note 1.md"},
		{"japanese", "活動ログ：内省", "活動ログ：内省", "活動ログ：内省"},
		{"bracketed paste breakout", "note \x1b[201~\x15!touch PWNED\r.md", `note \x1b[201~\x15!touch PWNED\x0d.md`, `note \x1b[201~\x15!touch PWNED\x0d.md`},
		{"newline and tab", "a\n\tb", "a\n\tb", `a\x0a\x09b`},
		{"C1 and DEL", "a\u009bb\x7fc", `a\x9bb\x7fc`, `a\x9bb\x7fc`},
		{"bidi override", "abc\u202etxt.md", `abc\u202etxt.md`, `abc\u202etxt.md`},
		{"a raw C1 byte (CSI)", "a\x9b31mb", `a\x9b31mb`, `a\x9b31mb`},
		{"half a rune", "\xe6\x97", `\xe6\x97`, `\xe6\x97`},
		{"a replacement character as such", "a\ufffdb", "a\ufffdb", "a\ufffdb"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Text(tt.in); got != tt.text {
				t.Errorf("Text(%q) = %q, want %q", tt.in, got, tt.text)
			}
			if got := Line(tt.in); got != tt.line {
				t.Errorf("Line(%q) = %q, want %q", tt.in, got, tt.line)
			}
		})
	}
}

func TestWriter(t *testing.T) {
	var b strings.Builder
	w := Writer(&b)
	in := "theme: \x1b]0;pwned\x07tides\n"
	n, err := w.Write([]byte(in))
	if err != nil || n != len(in) {
		t.Fatalf("Write = %d, %v; want %d, nil", n, err, len(in))
	}
	if got, want := b.String(), `theme: \x1b]0;pwned\x07tides`+"\n"; got != want {
		t.Errorf("wrote %q, want %q", got, want)
	}
}

// A rune split across two writes (a copy's buffer boundary) comes out whole;
// a raw C1 byte never does.
func TestWriterJoinsSplitRunes(t *testing.T) {
	var b strings.Builder
	w := Writer(&b)
	in := []byte("活動\x9b31m")
	for _, part := range [][]byte{in[:2], in[2:4], in[4:]} {
		if _, err := w.Write(part); err != nil {
			t.Fatal(err)
		}
	}
	if got, want := b.String(), `活動\x9b31m`; got != want {
		t.Errorf("wrote %q, want %q", got, want)
	}
}
