package gemini

import "github.com/ai-heart/ai-heart/internal/clients/client"

// screen is Gemini CLI 0.61's TUI as tmux captures it: the input line " > "
// between two rules, gone while a dialog asks ("Allow execution of
// [Shell]? ● 1. Allow once"); a running turn says "(esc to cancel, 3s)".
var screen = client.Screen{
	Prompt:       ">",
	Boxed:        true,
	Placeholders: []string{"Type your message"},
	Busy:         []string{"esc to cancel"},
	Dialogs:      []string{"Allow execution", "Apply this change?", "Allow once", "Do you trust"},
}

// Screen is its TUI.
func (Adapter) Screen() *client.Screen { return &screen }
