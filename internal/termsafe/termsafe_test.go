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
		{"half a rune passes through", "\xe6\x97", "\xe6\x97", "\xe6\x97"},
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
