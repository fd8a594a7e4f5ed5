package checks

import (
	"fmt"

	"github.com/ai-heart/ai-heart/internal/humanize"
)

func (e *eval) inactivity() Finding {
	f := Finding{Check: Inactivity}
	p := e.snap.NewestProof()
	if p != nil {
		f.ProofID = p.ID
	}
	c := e.cfg.Client
	st := InactivityStretch(p, e.strictEnded, c, e.cfg.Work, e.baseline(), e.clock)
	t, what, busy := st.From, st.What, st.Busy
	switch {
	case st.Asking:
		f.Message = "waiting for you since " + e.clock(c.AskSince) + " (waiting_for_you)"
		return f
	case st.Waiting:
		f.Message = "waiting for the next wakeup"
		return f
	}
	el, ok := e.since(t)
	if !ok {
		f.Message = "no proof yet"
		return f
	}
	f.Elapsed = el
	warn, errT := e.cfg.Thresholds.InactivityWarning.D(), e.cfg.Thresholds.InactivityError.D()
	if e.strict != nil {
		f.Message = fmt.Sprintf("%s %s ago; paused by strict deep work %s until %s", what, humanize.Duration(el), e.strict.ID, e.clock(e.strictUntil))
		return f
	}
	switch {
	case el > errT:
		f.Level = Error
	case el > warn:
		f.Level = Warning
	default:
		f.Message = fmt.Sprintf("%s %s ago", what, humanize.Duration(el))
		if busy && t.Equal(c.LastToolAt) {
			f.Message = e.busy()
		}
		return f
	}
	f.Message = fmt.Sprintf("no activity log or checkpoint for %s (warning after %s, error after %s; %s)", humanize.Duration(el), humanize.Duration(warn), humanize.Duration(errT), what)
	if f.Level == Error {
		// Recovery starts: point to its steps, not to the warning's
		// "keep going with a checkpoint".
		f.Notice = e.notice("No activity log or checkpoint for %s. The watchdog treats you as stuck and starts recovery: follow the recovery notice "+
			"(stop what you were doing, re-read GEMINI.md and ai-docs/, then write an activity log with activity_type recovery).", humanize.Span(el))
		return f
	}
	f.Notice = e.notice("No activity log or checkpoint for %s. If you are still working, write a checkpoint with a short note of what you are doing. "+
		"If the work needs a long stretch, declare it with start_deep_work (flexible: checkpoints still count; strict: inactivity, introspection and stale_id pause until its deadline). "+
		"When the activity is done, record it with create_activity_log.", humanize.Span(el))
	return f
}
