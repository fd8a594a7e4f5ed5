package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// agent.client names a client of the registry (one with hooks) or none:
// the watchdog refuses any other name, for one agent and for each of a
// fleet, as it refuses any bad key; a known one loads.
func TestConfigRefusesUnknownClient(t *testing.T) {
	dir := t.TempDir()
	ws := filepath.Join(dir, "ai-works")
	for _, tc := range []struct{ yaml, want string }{
		{"workspace: " + ws + "\nagent: {client: claud}\n", `agent.client: "claud" is not one of`},
		{"agents:\n  - {workspace: " + ws + ", agent: {client: gemini}}\n  - {workspace: " + ws + "2, agent: {client: claude-desktop}}\n", `agents[1].agent.client: "claude-desktop" is not one of`},
		{"workspace: " + ws + "\nagent: {client: codex}\n", ""},
	} {
		cfgPath := filepath.Join(dir, "watchdog.yaml")
		if err := os.WriteFile(cfgPath, []byte(tc.yaml), 0o600); err != nil {
			t.Fatal(err)
		}
		var stdout, stderr bytes.Buffer
		code := runCheck(context.Background(), []string{"-c", cfgPath}, &stdout, &stderr)
		switch {
		case tc.want != "" && (code != 2 || !strings.Contains(stderr.String(), tc.want)):
			t.Errorf("%q: exit %d, stderr %q; want 2 and %q", tc.yaml, code, stderr.String(), tc.want)
		case tc.want == "" && strings.Contains(stderr.String(), "agent.client"):
			t.Errorf("%q: refused a known client: %q", tc.yaml, stderr.String())
		}
	}
}
