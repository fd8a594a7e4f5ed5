package workspace

import (
	"errors"
	"fmt"
	"time"
)

// idLayout is the time layout of a heartbeat ID: YYYYMMDDHHMMSS.
const idLayout = "20060102150405"

// IDLen is the number of digits in a heartbeat ID.
const IDLen = 14

// ErrBadID reports text that is not a 14-digit heartbeat ID.
var ErrBadID = errors.New("not a heartbeat ID (want 14 digits YYYYMMDDHHMMSS)")

// ID is a heartbeat ID: the local time it was minted, as 14 digits. IDs sort
// by time when compared as strings.
type ID string

// NewID mints the ID of t, read in t's location.
func NewID(t time.Time) ID { return ID(t.Format(idLayout)) }

// ParseID validates s as a heartbeat ID naming a real calendar time.
func ParseID(s string) (ID, error) {
	if len(s) != IDLen {
		return "", fmt.Errorf("parse id %q: %w", s, ErrBadID)
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return "", fmt.Errorf("parse id %q: %w", s, ErrBadID)
		}
	}
	t, err := time.Parse(idLayout, s)
	if err != nil || t.Format(idLayout) != s {
		return "", fmt.Errorf("parse id %q: %w", s, ErrBadID)
	}
	return ID(s), nil
}

// Time returns the moment the ID names, read in loc. On a DST fold the
// earlier instant is chosen, as time.Date does.
func (id ID) Time(loc *time.Location) (time.Time, error) {
	t, err := time.ParseInLocation(idLayout, string(id), loc)
	if err != nil {
		return time.Time{}, fmt.Errorf("id time %q: %w", id, ErrBadID)
	}
	return t, nil
}

// String returns the 14 digits.
func (id ID) String() string { return string(id) }

// IDPrefix returns the heartbeat ID a file name starts with ("20250101120000.md",
// "20250101120000_02.md", "20250101120000_start_x.md"), or false.
func IDPrefix(name string) (ID, bool) {
	if len(name) < IDLen {
		return "", false
	}
	id, err := ParseID(name[:IDLen])
	if err != nil {
		return "", false
	}
	if len(name) > IDLen {
		switch name[IDLen] {
		case '.', '_':
		default:
			return "", false
		}
	}
	return id, true
}
