package main

import (
	"context"
	"io"
	"path/filepath"
	"strings"
	"testing"
)

// TestOutputShowsControlsEscaped: an agent-chosen name with an escape
// sequence reaches the person's terminal escaped, in a command's output
// and in the console log.
func TestOutputShowsControlsEscaped(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "works\x1b]0;pwned\x07")
	var out strings.Builder
	if code := run(context.Background(), []string{"init", dir}, &out, io.Discard); code != 0 {
		t.Fatalf("init exited %d", code)
	}
	if strings.Contains(out.String(), "\x1b]0;") || !strings.Contains(out.String(), `works\x1b]0;pwned\x07`) {
		t.Errorf("init's output carries the raw escape sequence:\n%q", out.String())
	}

	var log strings.Builder
	l, err := newLogger(&log, "console", "info")
	if err != nil {
		t.Fatal(err)
	}
	l.Info().Str("path", "a\x1b[2Jb").Msg("theme \x1b[31mred\r")
	if s := log.String(); strings.Contains(s, "\x1b[2J") || strings.Contains(s, "\x1b[31mred") || strings.Contains(s, "\r") ||
		!strings.Contains(s, `a\x1b[2Jb`) || !strings.Contains(s, `theme \x1b[31mred\x0d`) {
		t.Errorf("console log line %q: want the agent's escapes shown escaped", s)
	}
}
