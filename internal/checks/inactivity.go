package checks

import (
	"fmt"
	"time"

	"github.com/ai-heart/ai-heart/internal/humanize"
)

func (e *eval) inactivity() Finding {
	f := Finding{Check: Inactivity}
	p := e.snap.NewestProof()
	var t time.Time
	what := "no proof of activity"
	if p != nil {
		t, f.ProofID = p.ModTime, p.ID
		what = "last proof " + p.Path
	}
	// A strict pause that ended is not held against the agent: inactivity
	// counts from its deadline, so the expiry notice comes first, alone.
	if e.strictEnded.After(t) {
		t, what = e.strictEnded, "strict deep work ended at "+e.clock(e.strictEnded)
	}
	// The client's hooks prove life for free: a tool call is activity as
	// much as a checkpoint, and an agent asking a person is neither working
	// nor idle (waiting_for_you says so).
	c := e.cfg.Client
	if c.Asking {
		f.Message = "waiting for you since " + e.clock(c.AskSince) + " (waiting_for_you)"
		return f
	}
	busy := c.LastToolAt.After(t)
	if busy {
		t, what = c.LastToolAt, "last tool call "+c.LastTool+" at "+e.clock(c.LastToolAt)
	}
	w := e.cfg.Work
	if w.Scheduled && !w.Working {
		f.Message = "waiting for the next wakeup"
		return f
	}
	if w.Scheduled && w.Since.After(t) {
		t, what = w.Since, "wakeup delivered at "+e.clock(w.Since)+", no proof since"
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
	f.Notice = e.notice("No activity log or checkpoint for %s. If you are still working, write a checkpoint with a short note of what you are doing. "+
		"If the work needs a long stretch, declare it with start_deep_work (flexible: checkpoints still count; strict: inactivity, introspection and stale_id pause until its deadline). "+
		"When the activity is done, record it with create_activity_log.", humanize.Span(el))
	return f
}
