package workspace

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// ErrBadName reports a directory part that is not a single safe folder name.
var ErrBadName = errors.New("bad directory name")

// PartError is why CheckPart refused a part: Format and Args say it in
// English (a tool puts them into the agent's language); it unwraps to
// ErrBadName.
type PartError struct {
	Format string
	Args   []any
}

func (e *PartError) Error() string {
	return ErrBadName.Error() + ": " + fmt.Sprintf(e.Format, e.Args...)
}

func (e *PartError) Unwrap() error { return ErrBadName }

func partErr(format string, args ...any) error { return &PartError{format, args} }

// MaxPartLen bounds a directory part in bytes; file systems allow 255 and the
// part is prefixed by an ID.
const MaxPartLen = 100

// CheckPart validates a theme directory part: one folder name, no separators
// of any platform, no "..", no NUL or control characters, no leading dot, no
// characters Windows forbids. It returns the part with outer spaces trimmed.
func CheckPart(part string) (string, error) {
	p := strings.TrimSpace(part)
	switch {
	case p == "":
		return "", partErr("empty")
	case !utf8.ValidString(p):
		return "", partErr("not valid UTF-8")
	case len(p) > MaxPartLen:
		return "", partErr("longer than %d bytes", MaxPartLen)
	case strings.ContainsAny(p, `/\`):
		// Before the dot rules: "../cache" is a path, not a dotted name.
		return "", partErr("%q contains a path separator; give one folder name", p)
	case p == "..":
		return "", partErr("%q cannot be a name", p) // "contains .." said it of itself
	case strings.Contains(p, ".."):
		return "", partErr("%q contains ..", p)
	case strings.HasPrefix(p, "."):
		return "", partErr("%q starts with a dot", p)
	case strings.HasSuffix(p, "."):
		return "", partErr("%q ends with a dot", p)
	}
	for _, r := range p {
		if r == '/' || r == '\\' {
			return "", partErr("%q contains a path separator", p)
		}
		if strings.ContainsRune(`:*?"<>|`, r) {
			return "", partErr("%q contains '%c', which Windows forbids in names", p, r)
		}
		if unicode.IsControl(r) {
			return "", partErr("%q contains a control character", p)
		}
		if (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) || r == 0x200e || r == 0x200f || r == 0x061c {
			// A right-to-left override makes "evil\u202etxt.md" read as
			// "evildm.txt": the name must read as it is.
			return "", partErr("%q contains a bidirectional control (U+%04X), which makes a name read other than it is", p, r)
		}
	}
	if windowsReserved(p) {
		return "", partErr("%q is a device name on Windows (CON, PRN, AUX, NUL, COM1-9, LPT1-9), where such a folder cannot be opened", p)
	}
	return p, nil
}

// windowsReserved reports the device names Windows keeps for itself, with
// or without an extension, in any case ("con", "Aux.md", "COM1").
func windowsReserved(name string) bool {
	base, _, _ := strings.Cut(name, ".")
	switch b := strings.ToUpper(strings.TrimSpace(base)); {
	case b == "CON", b == "PRN", b == "AUX", b == "NUL":
		return true
	case len(b) == 4 && (strings.HasPrefix(b, "COM") || strings.HasPrefix(b, "LPT")) && b[3] >= '1' && b[3] <= '9':
		return true
	}
	return false
}

// OneLine makes s safe for a one-line field: newlines and control characters
// become spaces, so a value can never forge an extra line or key in a file.
func OneLine(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || r == '\u2028' || r == '\u2029' {
			return ' '
		}
		return r
	}, s)
	return strings.TrimSpace(s)
}

// Clip keeps at most n bytes of s, whole characters, and marks a cut
// with "…": agent-written text kept in a bounded place (the day's marks, a
// fleet pulse).
func Clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	s = s[:n]
	for !utf8.ValidString(s) {
		s = s[:len(s)-1]
	}
	return s + "…"
}
