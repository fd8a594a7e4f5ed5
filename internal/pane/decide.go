package pane

import (
	"fmt"
	"time"
)

// Purpose is what the watchdog would send the pane.
type Purpose int

// Purposes.
const (
	// Type is a wakeup's text: only into an idle, empty input line.
	Type Purpose = iota
	// Submit is the Enter after the watchdog's own text: the input line
	// holds that text, and no dialog may have come up since.
	Submit
	// Keys are a takeover's Escape: they may stop a running turn, never
	// answer a dialog nor wipe a person's words.
	Keys
)

// Hooks is what the client's hooks said last: whether the agent waits
// for a person, since when, and for what.
type Hooks struct {
	Asking   bool
	AskSince time.Time
	AskWhat  string
}

// AskGrace is how long a screen that shows the input line is not believed
// over a hook that says a person is asked: the hook can come before the
// dialog is drawn. Past it, the screen wins: a person who declines with
// Escape sends no hook event, and the ask would otherwise stand for ever.
const AskGrace = 3 * time.Second

// Verdict says whether to send, and if not, why not (for the log and the
// status: the words a person reads).
type Verdict struct {
	OK  bool
	Why string
}

// Decide is the one answer to "may I send p to this pane now?": never
// while a person is asked (a dialog on the screen, or the hooks' ask not
// yet outlived by a screen without one), never over a person's unsent
// text, and a wakeup's text never into a running turn or a screen that is
// not the client's input.
func Decide(v View, h Hooks, p Purpose, now time.Time) Verdict {
	switch {
	case v.Asks != "":
		return Verdict{Why: fmt.Sprintf("the pane shows a dialog (%q): a person must answer it", clip(v.Asks))}
	case h.Asking && (!v.Ready || now.Sub(h.AskSince) < AskGrace):
		what := h.AskWhat
		if what == "" {
			what = "a question"
		}
		return Verdict{Why: fmt.Sprintf("the agent is asking a person (%s)", what)}
	case v.Known && !v.Ready:
		return Verdict{Why: "the client's input line is not on the screen (a menu or a screen of its own stands in its place)"}
	case v.Draft != "" && p != Submit:
		return Verdict{Why: fmt.Sprintf("the input line holds unsent text (%q)", clip(v.Draft))}
	case v.Busy && p == Type:
		return Verdict{Why: "the client is in the middle of a turn"}
	}
	return Verdict{OK: true}
}

// clip shortens a screen line for a message.
func clip(s string) string {
	r := []rune(s)
	if len(r) > 60 {
		return string(r[:60]) + "…"
	}
	return s
}
