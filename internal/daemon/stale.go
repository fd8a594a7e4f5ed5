package daemon

import (
	"github.com/ai-heart/ai-heart/internal/state"
)

// A wakeup may wait long for the pane (a person's dialog, a running turn).
// What it carries is composed once it may go in, and one whose cause is
// gone by then is not sent: a recovery prompt after recovery finished or
// gave up, or an urgent wakeup for files already taken, told the agent of
// a past that was no longer so.

// moot says why the wakeup of source is no longer owed ("": it is), for a
// recovery flight made for the attempt in was (recovery as the flight
// began), or an urgent one whose text is text ("" once its files are
// taken).
func (a *agent) moot(source string, was state.Recovery, text string) string {
	switch source {
	case srcRecovery:
		if !was.Active || was.Attempt == 0 {
			return "" // not made for an attempt: nothing to outlive
		}
		a.mu.Lock()
		rec := a.gate.recovery()
		a.mu.Unlock()
		switch {
		case rec.GaveUp:
			return "recovery gave up while the key waited; no wakeup comes until it ends"
		case !rec.Active:
			return "recovery finished while the key waited"
		case was.AttemptAt != nil && rec.AttemptAt != nil && !rec.AttemptAt.Equal(*was.AttemptAt):
			return "the recovery attempt it was made for is over"
		}
	case srcFeedback:
		if text == "" {
			return "the urgent feedback was taken while the key waited"
		}
	}
	return ""
}

// urgentText is the urgent wakeup's text naming the files it was asked for
// that still wait, as the last pulse saw them; "" when none does. Without the items (an older flight), text as it was.
func (a *agent) urgentText(text string) string {
	a.mu.Lock()
	defer a.mu.Unlock()
	if len(a.urgentAsked) == 0 {
		return text
	}
	var left []string
	for _, rel := range a.urgentAsked {
		if a.urgent[rel] { // the pulse forgets what was taken
			left = append(left, rel)
		}
	}
	if len(left) == 0 {
		return ""
	}
	return urgentFormat(a.cfg.Language, left)
}

// known reports whether every item is in m.
func known(m map[string]bool, items []string) bool {
	for _, it := range items {
		if !m[it] {
			return false
		}
	}
	return len(items) > 0
}
