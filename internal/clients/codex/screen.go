package codex

import "github.com/ai-heart/ai-heart/internal/clients/client"

// screen is Codex 0.169's TUI, from the words its binary carries (no run
// of its TUI here shows a dialog): the composer "› " at the bottom, the
// approvals "Would you like to run the following command?", a running
// turn "esc to interrupt".
var screen = client.Screen{
	Prompt:       "›",
	Placeholders: []string{"Ask Codex to do anything", "Ask a follow-up question"},
	Busy:         []string{"esc to interrupt"},
	Dialogs: []string{"Would you like to run the following command?", "Would you like to make the following edits?",
		"Would you like to grant these permissions?", "Would you like to send input to the existing terminal?",
		"Do you trust"},
}

// Screen is its TUI.
func (Adapter) Screen() *client.Screen { return &screen }
