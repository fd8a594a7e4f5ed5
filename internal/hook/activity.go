package hook

import (
	"time"
)

// Activity is what the hooks said so far, folded event by event. The zero
// value is a client that has not spoken (hooks not wired, or not yet).
type Activity struct {
	// Wired: at least one event came since the watchdog started.
	Wired bool
	// Client is the client the newest event came from.
	Client string
	// Last is the newest event's time.
	Last time.Time

	// InTurn is true from a turn's start to its end; TurnStart is when it
	// began and TurnEnd when the last one ended.
	InTurn    bool
	TurnStart time.Time
	TurnEnd   time.Time
	// Prompted: the turn in progress began with a prompt the client
	// reported (not only implied by a tool call whose start was missed).
	Prompted bool
	// StretchStart is when the client's current run of turns began: a turn
	// that begins within BusyWindow of the last one's end goes on with it.
	// A line saying a turn ended and another began restarts nothing.
	StretchStart time.Time

	// LastTool is the newest tool call's name and time; Calls holds the
	// times of the recent ones (see Busy).
	LastTool   string
	LastToolAt time.Time
	calls      []time.Time

	// Running is the tool call begun and not yet ended, if any.
	Running string

	// Asking is true while the agent waits for a person (a permission
	// prompt, a question), since AskSince; AskWhat says which.
	Asking   bool
	AskSince time.Time
	AskWhat  string
	// Answered is when a person last answered (any event after an ask but
	// a notification): the time they took is not the agent's, so the
	// stretch counts again from here; the bound on what the hooks alone
	// hold off does not (the agent can write both lines).
	Answered time.Time
	// AskSeen is when the watchdog last saw the ask's dialog on the
	// client's screen (zero: not during this ask), and AnswerSeen says the
	// last answer ended an ask seen there. The hooks' word alone is the
	// agent's to write; a dialog on the screen is the client's: the time a
	// person takes at it is theirs, however long (see SawScreen).
	AskSeen    time.Time
	AnswerSeen bool

	// Refusals are the current (or last) turn's tool calls and those the
	// client refused; a turn's start clears them.
	Refusals Refusals

	// Failure is the newest service failure's type (rate_limit, ...) and
	// when it came; cleared by a turn that starts after it.
	Failure   string
	FailureAt time.Time

	// Loop follows the tool calls going round: Repeats is how many calls in
	// a row were the same call (same tool, same input), or alternated
	// between two calls; LoopTools names them.
	Repeats   int
	LoopTools string
	keys      [2]string // the last two calls' keys, newest first
	same, alt int       // current run of identical calls, of alternating calls
}

// BusyWindow is how far back Busy counts tool calls.
const BusyWindow = 5 * time.Minute

// Apply folds e into the activity.
func (a *Activity) Apply(e Event) {
	a.Wired, a.Client = true, e.Client
	if e.Time.After(a.Last) {
		a.Last = e.Time
	}
	if a.Asking && e.Kind != Ask && e.Kind != Other && e.Kind != Compact && e.Kind != ModelSwitch {
		a.Asking, a.Answered = false, e.Time // the person answered: the agent moves on
		a.AnswerSeen = !a.AskSeen.IsZero()
	}
	switch e.Kind {
	case ToolDone, ToolFailed, Refused, TurnStart, TurnEnd, Failure, SessionEnd, SessionStart:
		a.Running = ""
	}
	switch e.Kind {
	case TurnStart:
		a.stretch(e.Time)
		a.InTurn, a.TurnStart, a.Prompted = true, e.Time, true
		a.Failure = ""
		a.Refusals = Refusals{}
	case Refused:
		a.Refusals.Refuse(e.Tool, e.Time)
	case TurnEnd:
		a.InTurn, a.TurnEnd = false, e.Time
	case Failure:
		a.InTurn, a.TurnEnd = false, e.Time
		a.Failure, a.FailureAt = e.Detail, e.Time
	case SessionEnd:
		a.InTurn = false
	case Tool:
		if !a.InTurn { // a tool call is inside a turn, even one whose start was missed
			a.stretch(e.Time)
			a.InTurn, a.TurnStart, a.Prompted = true, e.Time, false
		}
		a.LastTool, a.LastToolAt, a.Running = e.Tool, e.Time, e.Tool
		a.Refusals.Calls++
		a.calls = append(a.calls, e.Time)
		if len(a.calls) > 512 {
			a.calls = a.calls[len(a.calls)-256:]
		}
		if !StatusTool(e.Tool) { // its result changes with time: asking again is no loop
			a.loop(e.Tool + "\x00" + e.Input)
		}
	case Ask:
		if !a.Asking {
			a.Asking, a.AskSince, a.AskSeen = true, e.Time, time.Time{}
		}
		a.AskWhat = e.Detail
		if e.Tool != "" {
			a.LastTool, a.LastToolAt = e.Tool, e.Time
		}
	}
}

// stretch notes a turn beginning at t: it goes on with the run of turns
// in progress, or with one that ended within BusyWindow, else begins one.
func (a *Activity) stretch(t time.Time) {
	if a.StretchStart.IsZero() || (!a.InTurn && t.Sub(a.TurnEnd) > BusyWindow) {
		a.StretchStart = t
	}
}

// loop folds a tool call's key into the runs of repeated calls.
func (a *Activity) loop(key string) {
	prev, prev2 := a.keys[0], a.keys[1]
	a.keys = [2]string{key, prev}
	switch {
	case key == prev:
		a.same++
	default:
		a.same = 1
	}
	switch {
	case key == prev2 && key != prev && prev != "":
		a.alt++
	case key != prev && prev != "":
		a.alt = 2 // the pair (prev, key) may start alternating
	default:
		a.alt = 0
	}
	a.Repeats, a.LoopTools = a.same, toolOf(key)
	// Alternation counts pairs: A B A B A B is 3 repetitions.
	if a.alt/2 > a.Repeats {
		a.Repeats, a.LoopTools = a.alt/2, toolOf(key)+" and "+toolOf(prev)
	}
}

func toolOf(key string) string {
	for i := 0; i < len(key); i++ {
		if key[i] == 0 {
			return key[:i]
		}
	}
	return key
}

// Busy is how many tool calls began in the BusyWindow up to now.
func (a *Activity) Busy(now time.Time) int {
	n := 0
	for i := len(a.calls) - 1; i >= 0 && now.Sub(a.calls[i]) <= BusyWindow; i-- {
		n++
	}
	return n
}

// MaxRefusedTools is how many distinct refused tools Refusals names; more
// are counted, not named.
const MaxRefusedTools = 8

// Refusals are the tool calls a turn made and those the client refused.
type Refusals struct {
	// Tools names the refused tools, distinct, in the order first refused
	// (at most MaxRefusedTools).
	Tools []string
	// Refused counts the refused calls, Calls every call begun.
	Refused, Calls int
	// At is the newest refusal's time.
	At time.Time
}

// Refuse notes a refused call of tool at t.
func (r *Refusals) Refuse(tool string, t time.Time) {
	r.Refused++
	if t.After(r.At) {
		r.At = t
	}
	if tool == "" || len(r.Tools) >= MaxRefusedTools {
		return
	}
	for _, n := range r.Tools {
		if n == tool {
			return
		}
	}
	r.Tools = append(r.Tools, tool)
}

// SawScreen folds in what the watchdog saw on the client's screen at at,
// while the hooks say a person is asked: the dialog (asks), which makes
// the ask the client's own; or the client's input line with no dialog
// (ready) past grace of the ask, once a dialog was seen: the person
// answered with no word from the hooks (Escape sends none). An ask no
// screen ever showed stays the hooks' word alone.
func (a *Activity) SawScreen(at time.Time, asks, ready bool, grace time.Duration) {
	switch {
	case !a.Asking || at.Before(a.AskSince):
	case asks:
		a.AskSeen = at
	case ready && !a.AskSeen.IsZero() && at.Sub(a.AskSince) >= grace:
		a.Asking, a.Answered, a.AnswerSeen = false, at, true
	}
}
