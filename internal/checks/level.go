package checks

import "fmt"

// Level is how bad a finding is. Levels are ordered: OK < Info < Warning < Error.
type Level int

// The levels of docs/design.md section 5.
const (
	OK Level = iota
	Info
	Warning
	Error
)

var levelNames = [...]string{"ok", "info", "warning", "error"}

// String returns "ok", "info", "warning" or "error".
func (l Level) String() string {
	if l < OK || l > Error {
		return fmt.Sprintf("level(%d)", int(l))
	}
	return levelNames[l]
}

// ParseLevel reads a level name as String writes it.
func ParseLevel(s string) (Level, error) {
	for i, n := range levelNames {
		if n == s {
			return Level(i), nil
		}
	}
	return OK, fmt.Errorf("parse level %q: want ok, info, warning or error", s)
}

// MarshalText writes the level's name, so state files and alerts read well.
func (l Level) MarshalText() ([]byte, error) {
	if l < OK || l > Error {
		return nil, fmt.Errorf("marshal level: %d is not a level", int(l))
	}
	return []byte(l.String()), nil
}

// UnmarshalText reads a level's name.
func (l *Level) UnmarshalText(b []byte) error {
	v, err := ParseLevel(string(b))
	if err != nil {
		return err
	}
	*l = v
	return nil
}
