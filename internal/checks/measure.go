package checks

import (
	"time"

	"github.com/ai-heart/ai-heart/internal/hook"
	"github.com/ai-heart/ai-heart/internal/lang"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// Stretch is where the agent stands against inactivity: the watchdog's
// pulse and mcp-heart's tools both measure it here, so a tool reply never
// tells the agent a different story from the check.
type Stretch struct {
	// Waiting: every wakeup is answered; nothing is due until the next one.
	Waiting bool
	// Asking: the agent waits for a person (waiting_for_you), and that
	// holds inactivity off: for as long as the client's screen shows the
	// dialog, else within HooksAlone times the warning threshold from Own,
	// as tool calls do. AskPast: the hooks alone say a person is asked,
	// past that bound (the agent can write the line itself); the stretch is
	// then judged by the bound alone.
	Asking  bool
	AskPast bool
	// From is the stretch's start (the newest proof, tool call, strict
	// deadline or unanswered wakeup, never before the baseline); zero when
	// there is nothing to count from yet.
	From time.Time
	// What names From for the alert line; Kind says what it is, for the
	// agent's words (see StretchFrom).
	What string
	Kind string
	// Busy: From is the client's last tool call.
	Busy bool
	// Hooked: From comes from the client's hooks (a tool call, or a turn
	// they show in progress), which the agent can write itself.
	Hooked bool
	// Own is the stretch's start without the hooks' tool calls and turn
	// starts: the agent's own newest proof, the strict deadline, the
	// unanswered wakeup, the baseline, or where the client's run of turns
	// began. Tool calls, a person being asked and their answer hold
	// inactivity off for HooksAlone times its thresholds from here, no
	// longer: none of them moves it, except the answer to a dialog the
	// client's screen showed (its wait was the person's).
	Own time.Time
}

// HooksAlone is how many times its thresholds the client's hooks alone
// (tool calls, turns) may hold inactivity off with no activity log or
// checkpoint of the agent's own: they prove the agent alive and busy, and
// the agent can write them itself.
const HooksAlone = 3

// InactivityStretch measures the inactivity stretch from the newest proof,
// the end of the last strict deep work, the client's hooks, the work clock
// and the watchdog's start (baseline, already at whole seconds), at now
// with the inactivity warning threshold warn; clock formats times for the
// alert line.
func InactivityStretch(now time.Time, warn time.Duration, proof *workspace.Proof, strictEnded time.Time, c hook.Activity, w Work, baseline time.Time, clock func(time.Time) string) Stretch {
	var s Stretch
	s.What = "no proof of activity"
	if proof != nil {
		s.From, s.What, s.Kind = proof.ModTime, "last proof "+proof.Path, FromProof
	}
	// A strict pause that ended is not held against the agent: inactivity
	// counts from its deadline, so the expiry notice comes first, alone.
	if strictEnded.After(s.From) {
		s.From, s.What, s.Kind = strictEnded, "strict deep work ended at "+clock(strictEnded), FromStrict
	}
	own := s.From
	if w.Scheduled && w.Working && !w.Hooked && w.Since.After(own) {
		own = w.Since
	}
	// A run of the client's turns begun after the unanswered wakeup is its
	// answer (an exec run's client starts up before its prompt hook): the
	// wakeup is where it began, as the stretch says, not a second start.
	answering := w.Scheduled && w.Working && !w.Hooked && !w.Since.IsZero() && !c.StretchStart.Before(w.Since)
	if c.StretchStart.After(own) && !answering {
		own = c.StretchStart
	}
	if baseline.After(own) {
		own = baseline
	}
	if c.AnswerSeen && c.Answered.After(own) {
		own = c.Answered // the person's minutes at a dialog the screen showed were theirs
	}
	s.Own = own
	// The client's hooks prove life for free: a tool call is activity as
	// much as a checkpoint, and an agent asking a person is neither working
	// nor idle (waiting_for_you says so). Both are the agent's word: bounded.
	if c.Asking {
		seen := !c.AskSeen.IsZero() && !c.AskSeen.Before(c.AskSince)
		if seen || own.IsZero() || now.Sub(own) <= HooksAlone*warn {
			s.Asking = true
			return s
		}
		s.AskPast = true
	}
	if c.LastToolAt.After(s.From) {
		s.From, s.What, s.Busy, s.Hooked, s.Kind = c.LastToolAt, "last tool call "+c.LastTool+" at "+clock(c.LastToolAt), true, true, FromTool
	}
	// The minutes a person took to answer are not the agent's: the stretch
	// begins again at the answer. What the hooks alone may hold does not:
	// any tool call after an ask line reads as its answer.
	if c.Answered.After(s.From) {
		s.From, s.What, s.Busy, s.Hooked, s.Kind = c.Answered, "a person answered at "+clock(c.Answered), false, true, FromAnswer
	}
	if w.Scheduled && !w.Working {
		s.Waiting = true
		return s
	}
	if w.Scheduled && w.Since.After(s.From) {
		s.From, s.What, s.Busy, s.Hooked, s.Kind = w.Since, "wakeup delivered at "+clock(w.Since)+", no proof since", false, w.Hooked, FromWakeup
		if w.Hooked {
			s.What, s.Kind = "turn began at "+clock(w.Since)+", no proof since", FromTurn
		}
		if w.Ended.Kind != "" && !w.EndedAt.Before(w.Since) {
			s.What = "wakeup delivered at " + clock(w.Since) + "; its run was ended by " + w.Ended.In(lang.English) + " at " + clock(w.EndedAt) + ", no proof since"
			s.Kind = FromCutRun
		}
	}
	if baseline.After(s.From) {
		// What came before (a tool call before a pause) is named no more:
		// the alert line and the recovery notice count from here too.
		s.From, s.Hooked, s.Busy, s.Kind = baseline, false, false, FromStart
		s.What = "watchdog started or last pause ended at " + clock(baseline) + ", no proof since"
	}
	if s.AskPast {
		s.Hooked = true // past the bound the hooks' word is all there is
	}
	return s
}

// IntrospectionOwed is the time introspection is owed on: working time
// when a schedule wakes the agent (waiting does not make it due), else the
// wall-clock time since the last introspection (or the baseline). ok is
// false when there is nothing to count from.
func IntrospectionOwed(now time.Time, last *workspace.Proof, w Work, baseline time.Time) (owed time.Duration, working, ok bool) {
	if w.Scheduled {
		return w.Worked, true, true
	}
	var t time.Time
	if last != nil {
		t = last.ModTime
	}
	if baseline.After(t) {
		t = baseline
	}
	if t.IsZero() {
		return 0, false, false
	}
	return max(now.Sub(t), 0), false, true
}

// What a stretch counts from, as the agent is told it.
const (
	FromProof    = "proof"
	FromStrict   = "strict"
	FromTool     = "tool"
	FromAnswer   = "answer" // a person answered the agent's question
	FromWakeup   = "wakeup"
	FromCutRun   = "cut_run"   // the wakeup of a run the watchdog ended, read by the next run
	FromTurn     = "turn"      // a turn the client's hooks show in progress
	FromOwn      = "own"       // the agent's own last word, past what the hooks alone may hold
	FromStart    = "start"     // the watchdog's start, or (measured without knowing which) the end of a pause
	FromPauseEnd = "pause_end" // the end of the operator's pause
)

// StretchFrom is what an inactivity stretch counts from, in the agent's
// words, with its clock time: "For 8s" alone beside "Since latest
// checkpoint: 1m11s" read as a contradiction.
type StretchFrom struct{ Kind, At string }

// In renders it in language l.
func (f StretchFrom) In(l lang.Lang) string {
	format := map[string]string{
		FromProof:    "your latest activity log or checkpoint (%s)",
		FromStrict:   "the end of your strict deep work (%s)",
		FromTool:     "your last tool call (%s)",
		FromAnswer:   "a person's answer to your client's prompt (%s)",
		FromWakeup:   "the wakeup (%s)",
		FromCutRun:   "the wakeup of your last run (%s)",
		FromTurn:     "the start of your turn (%s)",
		FromOwn:      "your own last log, checkpoint or wakeup (%s)",
		FromStart:    "the watchdog's start (%s)",
		FromPauseEnd: "the end of the operator's pause (%s)",
	}[f.Kind]
	if format == "" {
		format = "%s"
	}
	return ja.F(l, format, f.At)
}
