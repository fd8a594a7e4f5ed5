package checks

import (
	"fmt"
	"strings"

	"github.com/ai-heart/ai-heart/internal/humanize"
)

// logLoop: the same newest log changed in place in two consecutive pulses.
func (e *eval) logLoop(prev State) (Finding, State) {
	f := Finding{Check: LogLoop, Message: "newest log not being rewritten"}
	var next State
	l := e.snap.LastLog
	if l == nil {
		return f, next
	}
	next.LastLog, next.LastLogModTime = l.Path, l.ModTime
	f.ProofID = l.ID
	if prev.LastLog == l.Path && !prev.LastLogModTime.IsZero() && !l.ModTime.Equal(prev.LastLogModTime) {
		next.Rewrites = prev.Rewrites + 1
	}
	switch next.Rewrites {
	case 0:
	case 1:
		f.Message = fmt.Sprintf("newest log %s changed once since the previous pulse", l.Path)
	default:
		f.Level = Error
		f.Message = fmt.Sprintf("newest log %s rewritten in %d consecutive pulses", l.Path, next.Rewrites)
		f.Fact = e.notice("the activity log %s was rewritten in %d pulses in a row (log_loop)", l.Path, next.Rewrites)
		f.Notice = e.notice("The activity log %s has been rewritten again and again. Stop editing it: it looks like a loop. "+
			"Re-read your rules (GEMINI.md), then record your next activity as a new log with create_activity_log.", l.Path)
	}
	return f, next
}

// themePattern: 3+ theme history files share the newest ID, while that ID is
// recent (within inactivity_error) and not older than the baseline, so the
// error clears once the burst is over instead of holding forever.
func (e *eval) themePattern() Finding {
	f := Finding{Check: ThemePattern, ProofID: e.snap.ThemeRecordID}
	n := len(e.snap.ThemeRecords)
	if n < 3 {
		f.Message = fmt.Sprintf("%d theme record(s) share the newest ID", n)
		return f
	}
	t, err := e.snap.ThemeRecordID.Time(e.cfg.Loc)
	if err != nil {
		f.Message = "newest theme record ID unreadable"
		return f
	}
	f.Elapsed = e.now.Sub(t)
	if e.beforeBaseline(t) || f.Elapsed > e.cfg.Thresholds.InactivityError.D() {
		f.Message = fmt.Sprintf("%d theme records share ID %s, %s ago; not recent", n, e.snap.ThemeRecordID, humanize.Duration(f.Elapsed))
		return f
	}
	f.Level = Error
	f.Message = fmt.Sprintf("%d theme records share heartbeat ID %s: %s", n, e.snap.ThemeRecordID, strings.Join(e.snap.ThemeRecords, ", "))
	f.Fact = e.notice("%d theme start or end records were written in one heartbeat (%s) (theme_pattern)", n, e.snap.ThemeRecordID)
	f.Notice = e.notice("%d theme start/end records were written in the same heartbeat (%s): themes are being started and ended in a loop. "+
		"Stop, read artifacts/theme_histories/ to see where you are, and continue the current theme; start or end a theme (start_theme, end_theme) only once per decision.",
		n, e.snap.ThemeRecordID)
	return f
}
