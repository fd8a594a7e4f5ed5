package codex

import "github.com/ai-heart/ai-heart/internal/clients/client"

// screen is Codex 0.169's TUI as tmux captures it: the composer "› " near
// the bottom, no rules around it; a running turn "◦ Working (1s • esc to
// interrupt)"; full screens of its own in place of the composer (its hooks
// review, "8 hooks need review … t trust all"). The approvals ("Would you
// like to run the following command?") are from the words its binary
// carries: no run here brought one up.
var screen = client.Screen{
	Prompt:       "›",
	Placeholders: []string{"Ask Codex to do anything", "Ask a follow-up question"},
	Busy:         []string{"esc to interrupt"},
	Dialogs: []string{"Would you like to run the following command?", "Would you like to make the following edits?",
		"Would you like to grant these permissions?", "Would you like to send input to the existing terminal?",
		"Do you trust", "need review", "t trust all"},
}

// Screen is its TUI.
func (Adapter) Screen() *client.Screen { return &screen }
