package checks

import (
	"fmt"
	"strings"
)

// Progress is what the agent's work showed around its last answered
// wakeups (internal/progress): how many in a row changed nothing in the
// folders watched, and what warns (After; twice After errs; 0 = off).
type Progress struct {
	After     int
	Unchanged int
	// Watched names the folders (workspace-relative where they are in it).
	Watched []string
}

// folders names the folders watched: plain for the alert line, quoted
// as paths in the notice (in its language's list).
func (e *eval) folders(notice bool) string {
	ws := e.cfg.Progress.Watched
	if !notice {
		return strings.Join(ws, ", ")
	}
	q := make([]string, len(ws))
	for i, w := range ws {
		q[i] = "`" + strings.TrimSuffix(w, "/") + "/`"
	}
	return strings.Join(q, e.notice(", "))
}

// noProgress fires when the agent answered After wakeups in a row (ghost
// replies aside) and nothing changed in any folder watched: it is alive,
// yet its work stands still. A warning, an error at twice After; it starts
// no recovery (the agent answers), and its notice asks the agent to say
// what blocks it or change course.
func (e *eval) noProgress() Finding {
	f := Finding{Check: NoProgress}
	p := e.cfg.Progress
	switch {
	case p.After <= 0:
		f.Message = "progress not judged here (progress.after: 0, or a one-off check)"
		return f
	case p.Unchanged < p.After:
		f.Message = fmt.Sprintf("%d answered wakeups in a row without a change in %s (warning at %d)", p.Unchanged, e.folders(false), p.After)
		return f
	}
	f.Level = Warning
	if p.Unchanged >= 2*p.After {
		f.Level = Error
	}
	f.Message = fmt.Sprintf("%d answered wakeups in a row changed nothing in %s (no_progress; warning at %d, error at %d)", p.Unchanged, e.folders(false), p.After, 2*p.After)
	f.Notice = e.notice("Your last %d answers changed nothing in your work (%s): no file, no commit. "+
		"If something blocks you, say in an activity log what it is and what you need; otherwise change course and make the next step real: a file written, a test run, a commit.", p.Unchanged, e.folders(true))
	return f
}
