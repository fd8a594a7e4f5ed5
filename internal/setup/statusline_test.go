package setup

import (
	"os"
	"strings"
	"testing"
)

// TestStatusLineKeepsTheUsersOwn: init makes heart-hook Claude Code's
// status line (it reads the rate limits), but a status line of the user's
// own is kept, and the note says how to chain it through heart-hook.
func TestStatusLineKeepsTheUsersOwn(t *testing.T) {
	w := testWiring(t)
	p := w.abs(".claude/settings.json")
	writeFile(t, p, `{"statusLine": {"type": "command", "command": "~/bin/my-status"}}`)
	wrote, _, err := Wire(w, []string{ClientClaudeCode})
	if err != nil {
		t.Fatal(err)
	}
	var notes []string
	for _, f := range wrote {
		notes = append(notes, f.Notes...)
	}
	b, _ := os.ReadFile(p)
	if !strings.Contains(string(b), `"~/bin/my-status"`) || strings.Contains(string(b), "--statusline") {
		t.Fatalf("the user's statusLine was not kept:\n%s", b)
	}
	joined := strings.Join(notes, "\n")
	if !strings.Contains(joined, "--statusline") || !strings.Contains(joined, "-- sh -c '~/bin/my-status'") {
		t.Fatalf("notes %q: want how to chain the user's status line", notes)
	}
}
