package config

import (
	"fmt"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"
)

// Duration is a time.Duration read from a Go duration string.
type Duration time.Duration

// D returns the value as a time.Duration.
func (d Duration) D() time.Duration { return time.Duration(d) }

// UnmarshalYAML reads "90s", "5m", "0".
func (d *Duration) UnmarshalYAML(n *yaml.Node) error {
	v, err := time.ParseDuration(strings.TrimSpace(n.Value))
	if err != nil {
		return &durationError{line: n.Line, column: n.Column, value: n.Value}
	}
	*d = Duration(v)
	return nil
}

// durationError is a bad duration at a position; strict names its key.
type durationError struct {
	line, column int
	value        string
}

func (e *durationError) Error() string {
	return fmt.Sprintf("line %d: %q is not a Go duration (like 90s, 5m, 2h)", e.line, e.value)
}

// MarshalYAML writes the duration string.
func (d Duration) MarshalYAML() (any, error) { return time.Duration(d).String(), nil }

// MarshalText writes the duration string (for JSON state files).
func (d Duration) MarshalText() ([]byte, error) { return []byte(time.Duration(d).String()), nil }

// UnmarshalText reads the duration string (for JSON state files).
func (d *Duration) UnmarshalText(b []byte) error {
	v, err := time.ParseDuration(string(b))
	*d = Duration(v)
	return err
}
