package client

import "regexp"

// Screen is how a client's terminal UI looks, as tmux captures it without
// colour: what the watchdog reads in the pane before it types into it.
// The input line is the sign the client waits for a message: a dialog, a
// menu or a screen of its own replaces it.
type Screen struct {
	// Prompt is the marker that starts the input line ("❯", ">").
	Prompt string
	// Boxed: the input line sits between two horizontal rules, which tell it
	// from the same marker in the conversation above.
	Boxed bool
	// Placeholders start the hints the client shows in an empty input line
	// (not a person's text).
	Placeholders []string
	// Busy are words, lower case, that the client shows only while a turn
	// runs ("esc to cancel").
	Busy []string
	// Spinner matches the line just above the input that shows a turn
	// running, where the client's words for it vary; nil when Busy says it.
	Spinner *regexp.Regexp
	// Dialogs are words of the client's dialogs that ask a person (a
	// permission, a trust question), to name what is asked.
	Dialogs []string
}
