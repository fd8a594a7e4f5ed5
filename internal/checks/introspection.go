package checks

import (
	"fmt"

	"github.com/ai-heart/ai-heart/internal/humanize"
	"github.com/ai-heart/ai-heart/internal/lang"
)

func (e *eval) introspection() Finding {
	f := Finding{Check: Introspection}
	what := "no introspection log"
	if p := e.snap.LastIntrospection; p != nil {
		f.ProofID = p.ID
		what = "last introspection " + p.Path
	}
	// Owed per working time when scheduled: waiting does not make it due.
	el, working, ok := IntrospectionOwed(e.now, e.snap.LastIntrospection, e.cfg.Work, e.baseline())
	of := ""
	if working {
		of = " of working time"
	}
	if !ok {
		f.Message = "no introspection yet"
		return f
	}
	f.Elapsed = el
	info, warning, limit := e.cfg.Thresholds.IntrospectionLevels()
	if e.active != nil {
		f.Message = fmt.Sprintf("%s %s ago; paused by %s deep work %s", what, humanize.Duration(el), e.active.Mode, e.active.ID)
		return f
	}
	switch {
	case el > limit:
		f.Level = Error
	case el > warning:
		f.Level = Warning
	case el > info:
		f.Level = Info
	default:
		f.Message = fmt.Sprintf("%s %s ago", what, humanize.Duration(el))
		return f
	}
	f.Message = fmt.Sprintf("no introspection for %s%s (required every %s; %s)", humanize.Duration(el), of, humanize.Duration(limit), what)
	// The advice is graded as heartbeat-notices.md grades it; deep work
	// is offered as a pause only below error, where introspection can wait.
	// After a strict deadline and before its log, the expiry notice gives
	// the one order (log, introspect, declare again): no escape here.
	afterStrict := !e.strictEnded.IsZero() && (e.snap.LastLog == nil || e.snap.LastLog.ModTime.Before(e.strictEnded))
	var advice string
	switch {
	case f.Level == Info && afterStrict:
		advice = e.notice("Plan an introspection within the next cycle or two (create_activity_log with activity_type introspection).")
	case f.Level == Warning && afterStrict:
		advice = e.notice("Make your next activity log an introspection (create_activity_log with activity_type introspection).")
	case f.Level == Info:
		advice = e.notice("Plan an introspection within the next cycle or two (create_activity_log with activity_type introspection). If you are in the middle of long work, start_deep_work (flexible) pauses this check.")
	case f.Level == Warning:
		advice = e.notice("Make your next activity log an introspection (create_activity_log with activity_type introspection). If you are in the middle of long work, start_deep_work (flexible) pauses this check.")
	default:
		advice = e.notice("Introspect now, in this cycle: look back on your recent activity and record it with create_activity_log with activity_type introspection.")
	}
	sep := " "
	if e.cfg.Language == lang.Japanese {
		sep = "" // Japanese sentences follow each other without a space
	}
	f.Notice = e.notice("You have not reflected for %s%s (introspection is due every %s).", humanize.Span(el), e.notice(of), humanize.Span(limit)) + sep + advice
	return f
}
