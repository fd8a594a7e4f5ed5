package checks

import (
	"fmt"
	"time"

	"github.com/ai-heart/ai-heart/internal/humanize"
	"github.com/ai-heart/ai-heart/internal/lang"
)

func (e *eval) inactivity() Finding {
	f := Finding{Check: Inactivity}
	p := e.snap.NewestProof()
	if p != nil {
		f.ProofID = p.ID
	}
	c := e.cfg.Client
	warn, errT := e.cfg.Thresholds.InactivityWarning.D(), e.cfg.Thresholds.InactivityError.D()
	st := InactivityStretch(e.now, warn, p, e.strictEnded, c, e.cfg.Work, e.baseline(), e.clock)
	e.askPast = st.AskPast
	if st.Kind == FromStart && e.cfg.Paused {
		f.Message = "paused: no inactivity alerts until the pause ends"
		return f
	}
	if st.Kind == FromStart {
		// The watchdog knows which its baseline is: say so.
		st.What = "watchdog started at " + e.clock(st.From) + ", no proof since"
		if e.cfg.BaselinePause {
			st.Kind, st.What = FromPauseEnd, "last pause ended at "+e.clock(st.From)+", no proof since"
		}
	}
	t, what, busy := st.From, st.What, st.Busy
	if st.AskPast {
		what = "waiting for you since " + e.clock(c.AskSince) + " (waiting_for_you); " + what
	}
	switch {
	case st.Asking:
		f.Message = "waiting for you since " + e.clock(c.AskSince) + " (waiting_for_you)"
		return f
	case st.Waiting:
		f.Message = "waiting for the next wakeup" + e.held()
		return f
	}
	if r := e.cfg.Work.RetryUntil; !r.IsZero() && r.After(t) {
		if e.now.Before(r) {
			f.Message = "the client waits to retry a failed request until " + e.clock(r) + " (it said so; agent.retry_wait_max bounds it)"
			return f
		}
		t, what = r, "the client's announced retry wait ended at "+e.clock(r)+", no proof since"
	}
	el, ok := e.since(t)
	if !ok {
		f.Message = "no proof yet"
		return f
	}
	f.Elapsed = el
	if e.strict != nil {
		f.Message = fmt.Sprintf("%s %s ago; paused by strict deep work %s until %s", what, humanize.Duration(el), e.strict.ID, e.clock(e.strictUntil))
		return f
	}
	var alone time.Duration // how long the hooks alone have held inactivity off
	if st.Hooked {
		if o, ok := e.since(st.Own); ok && o > HooksAlone*warn {
			alone = o
		}
	}
	// A person being asked holds the stretch itself off: past the hooks'
	// bound, only the bound counts.
	own := !st.AskPast
	switch {
	case own && el > errT || alone > HooksAlone*errT:
		f.Level = Error
	case own && el > warn || alone > 0:
		f.Level = Warning
	default:
		f.Message = fmt.Sprintf("%s %s ago", what, humanize.Duration(el))
		if busy && t.Equal(c.LastToolAt) {
			f.Message = e.busy()
		}
		f.Message += e.held()
		return f
	}
	from := StretchFrom{Kind: st.Kind, At: e.clock(t)}
	if (el <= warn || !own) && alone > 0 {
		// Busy by the hooks' word, and for too long with no word of the
		// agent's own: the notice asks for the checkpoint.
		el = alone
		f.Elapsed = el
		if busy && t.Equal(c.LastToolAt) && own {
			what = e.busy()
		}
		f.Message = fmt.Sprintf("no activity log or checkpoint for %s, only the client's hooks (they hold inactivity off for %d times its thresholds at most: warning after %s, error after %s; %s)",
			humanize.Duration(el), HooksAlone, humanize.Duration(HooksAlone*warn), humanize.Duration(HooksAlone*errT), what)
		f.Fact = e.notice("no activity log or checkpoint of your own for %s, only the client's hooks (inactivity; warning after %s, error after %s)", humanize.Span(el), humanize.Span(HooksAlone*warn), humanize.Span(HooksAlone*errT))
		from = StretchFrom{Kind: FromOwn, At: e.clock(st.Own)}
	} else {
		f.Message = fmt.Sprintf("no activity log or checkpoint for %s (warning after %s, error after %s; %s)", humanize.Duration(el), humanize.Duration(warn), humanize.Duration(errT), what)
		f.Fact = e.notice("no activity log or checkpoint for %s (inactivity; warning after %s, error after %s)", humanize.Span(el), humanize.Span(warn), humanize.Span(errT))
	}
	f.Message += e.held()
	if f.Level == Error {
		// Recovery starts. Its steps are said once: beside the RECOVERY
		// block the error points to it (Brief); without one (the word a
		// busy turn reads alone, the pulse before the attempt) the error
		// says them itself.
		f.Brief = e.notice("No activity log or checkpoint for %s, counted from %s: the recovery notice says what to do.", humanize.Span(el), from)
		f.Notice = e.notice("No activity log or checkpoint for %s, counted from %s. The watchdog treats you as stuck and starts recovery: "+
			"stop what you were doing, re-read GEMINI.md and ai-docs/, then write an activity log with activity_type recovery: what happened and what you will do next.", humanize.Span(el), from)
		busyWords := alone > 0 && own
		switch e.cfg.Stance {
		case StanceBusy:
			busyWords = true
		case StanceStuck:
			busyWords = false
		}
		switch {
		case e.runCut():
			// The watchdog ended the run: not a stall, and the run that
			// reads this is a new one, with nothing to stop. (A signal
			// came from outside: no limit of the watchdog's.)
			if e.cfg.Work.Ended.Kind != EndSignal {
				f.Cut = e.cutSentence()
			}
			f.Notice = e.notice("No activity log or checkpoint for %s, counted from %s. The watchdog starts recovery: "+
				"re-read GEMINI.md and ai-docs/, then write an activity log with activity_type recovery: what the ended run had done and what you will do next.", humanize.Span(el), from)
		case busyWords:
			// Busy by the watchdog's one decision (the attempt's stance):
			// not stuck, and not to be told to stop.
			f.Notice = e.notice("No activity log or checkpoint for %s, counted from %s, while your client's tools kept busy. The watchdog starts recovery: "+
				"at the next step of your work, write a checkpoint of what you are doing, then re-read GEMINI.md and ai-docs/ and write an activity log with activity_type recovery.", humanize.Span(el), from)
		}
		if e.cfg.RecoveryOff {
			// Recovery gave up or waits: no recovery notice comes to follow.
			f.Brief = ""
			f.Notice = e.notice("No activity log or checkpoint for %s, counted from %s. Before anything else, write an activity log with activity_type recovery: what happened and what you will do next.", humanize.Span(el), from)
			if e.cfg.RecoveryAsked {
				// The give-up's line (status) or notice (wakeup) above asks for
				// that log: one log, asked once.
				f.Notice = e.notice("No activity log or checkpoint for %s, counted from %s. Write the one activity log with activity_type recovery asked for above: it answers this too.", humanize.Span(el), from)
			}
		}
		f.Notice = e.cutFirst(f.Notice)
		return f
	}
	if e.runCut() {
		// Read by the next run, a new one: "if you are still working" was
		// advice for the run that was ended.
		f.Notice = e.cutFirst(e.notice("No activity log or checkpoint for %s, counted from %s. That count goes on in this run: begin with a checkpoint, a short note of what you take up, and when the activity is done, record it with create_activity_log. "+
			"If the work needs a long stretch, declare it with start_deep_work (flexible: checkpoints still count; strict: inactivity, introspection and stale_id pause until its deadline).", humanize.Span(el), from))
		return f
	}
	f.Notice = e.notice("No activity log or checkpoint for %s, counted from %s. If you are still working, write a checkpoint with a short note of what you are doing. "+
		"If the work needs a long stretch, declare it with start_deep_work (flexible: checkpoints still count; strict: inactivity, introspection and stale_id pause until its deadline). "+
		"When the activity is done, record it with create_activity_log.", humanize.Span(el), from)
	return f
}

// runCut reports whether the watchdog ended the agent's last run (the tool
// cap, the token cap, the timeout, a signal) before it wrote its log, in the
// working stretch counted now.
func (e *eval) runCut() bool {
	w := e.cfg.Work
	return w.Ended.Kind != "" && w.Working && !w.EndedAt.Before(w.Since)
}

// cutFirst puts before notice what ended the agent's last run, when the
// watchdog did (the tool cap, the token cap, the timeout, a signal) before
// it wrote its log: not a silent stall, and the next run's prompt must say
// so at the warning too, not only once it is an error.
func (e *eval) cutFirst(notice string) string {
	if !e.runCut() {
		return notice
	}
	sep := " "
	if e.cfg.Language == lang.Japanese {
		sep = "" // Japanese sentences follow each other without a space
	}
	return e.cutSentence() + sep + notice
}

// cutSentence says what ended the agent's last run and when, and how to
// keep the next one from it.
func (e *eval) cutSentence() string {
	w := e.cfg.Work
	cut := "Your last run was ended by %s at %s, before it wrote an activity log; keep each run within it."
	if w.Ended.Kind == EndSignal { // no limit of yours to keep within
		cut = "Your last run was ended by %s at %s, before it wrote an activity log. In long work, write checkpoints along the way and close each piece of work early with an activity log."
	}
	return e.notice(cut, w.Ended, e.clock(w.EndedAt))
}

// held says, for the inactivity line, that the model's service holds the
// agent's wakeups: the agent waits for the service, not for its own work.
func (e *eval) held() string {
	w := e.cfg.Work
	if !e.now.Before(w.HeldUntil) {
		return ""
	}
	return fmt.Sprintf("; the model's service holds wakeups (%s) until %s, then one wakeup probes it", w.HeldFor, e.clock(w.HeldUntil))
}
