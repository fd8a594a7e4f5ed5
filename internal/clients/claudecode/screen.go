package claudecode

import (
	"regexp"

	"github.com/ai-heart/ai-heart/internal/clients/client"
)

// screen is Claude Code 2.1's TUI as tmux captures it: the input line "❯ "
// between two rules, gone while a dialog asks ("Do you want to proceed?
// ❯ 1. Yes"); a running turn shows a spinner glyph and a gerund just above
// the input ("✽ Dilly-dallying…"), or above its own sub-lines ("⎿ Tip: …")
// and the messages queued for the turn's end, whose hint then stands in
// the input line ("Press up to edit queued messages").
var screen = client.Screen{
	Prompt:       "❯",
	Boxed:        true,
	Placeholders: []string{`Try "`, "Press up to edit queued messages"},
	Busy:         []string{"esc to interrupt"},
	Spinner:      regexp.MustCompile(`^[·✢✳✶✻✽*] \S.*…`),
	Dialogs: []string{"Do you want to proceed?", "Do you want to make this edit", "Do you want to create",
		"Yes, I trust this folder", "New MCP server found", "Enter to confirm"},
}

// Screen is its TUI.
func (Adapter) Screen() *client.Screen { return &screen }
