package checks

import (
	"fmt"
	"github.com/ai-heart/ai-heart/internal/lang"
	"path"
	"strings"
	"time"

	"github.com/ai-heart/ai-heart/internal/humanize"
	"github.com/ai-heart/ai-heart/internal/scan"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

type expiry struct {
	decl     workspace.Declaration
	rel      string
	deadline time.Time
	capped   bool
}

// classifyDeepWork decides, for every active declaration file, whether it is
// still in force, ended by an activity log (both modes end at the next log:
// mcp-heart renames them on create_activity_log, and a hand-written log must
// not leave a pause behind), or a strict one past its deadline.
func (e *eval) classifyDeepWork() {
	for _, f := range e.snap.ActiveDeepWork {
		d, rel, mtime := f.Decl, f.Rel, f.ModTime
		// The file's mtime is more precise than declared_at (whole seconds),
		// so a log written in the same second before the declaration does
		// not end it.
		start := d.DeclaredAt
		if mtime.After(start) {
			start = mtime
		}
		deadline, capped := e.deadline(d, mtime)
		log := e.snap.LastLog
		endedByLog := log != nil && log.ModTime.After(start) &&
			(d.Mode == workspace.Flexible || !log.ModTime.After(deadline))
		switch {
		case endedByLog:
			e.actions = append(e.actions, Action{Kind: CompleteDeclaration, Rel: rel,
				NewRel: path.Dir(rel) + "/" + workspace.DeepWorkName(d.ID, workspace.Completed)})
		case d.Mode == workspace.Strict && e.now.After(deadline):
			e.expired = append(e.expired, expiry{decl: d, rel: rel, deadline: deadline, capped: capped})
			e.actions = append(e.actions, Action{Kind: ExpireDeclaration, Rel: rel,
				NewRel: path.Dir(rel) + "/" + workspace.DeepWorkName(d.ID, workspace.Expired)})
		default:
			d := d
			e.active = &d
			if d.Mode == workspace.Strict && (e.strict == nil || deadline.After(e.strictUntil)) {
				e.strict, e.strictUntil = &d, deadline
			}
		}
	}
}

// deadline is a strict declaration's deadline, capped at
// max_strict_deep_work after it was declared, so a hand-written file with a
// far deadline cannot switch the watchdog off.
func (e *eval) deadline(d workspace.Declaration, mtime time.Time) (time.Time, bool) {
	if d.Mode != workspace.Strict {
		return time.Time{}, false
	}
	from := d.DeclaredAt
	if !mtime.IsZero() && mtime.Before(from) {
		from = mtime
	}
	limit := from.Add(e.cfg.Thresholds.MaxStrictDeepWork.D())
	if d.Deadline.IsZero() || limit.Before(d.Deadline) {
		return limit, true
	}
	return d.Deadline, false
}

// afterDeepWork: the log that completed the newest deep work is the first
// log written after the declaration; if a log after that one exists and no
// introspection has come since (the completing log counts), warn.
func (e *eval) afterDeepWork() Finding {
	f := Finding{Check: AfterDeepWork}
	c := e.snap.LastCompleted
	if c == nil {
		f.Message = "no completed deep work"
		return f
	}
	f.ProofID = c.Decl.ID
	start := c.Decl.DeclaredAt
	if c.ModTime.After(start) {
		start = c.ModTime
	}
	var after []workspace.Proof // oldest first
	for i := len(e.snap.RecentLogs) - 1; i >= 0; i-- {
		if l := e.snap.RecentLogs[i]; l.ModTime.After(start) {
			after = append(after, l)
		}
	}
	switch {
	case len(after) == 0:
		f.Message = fmt.Sprintf("deep work %s completed; no log after it yet", c.Decl.ID)
		return f
	case len(after) == len(e.snap.RecentLogs) && len(after) >= scan.RecentLogCount:
		f.Message = fmt.Sprintf("deep work %s completed %d or more logs ago", c.Decl.ID, len(after))
		return f
	}
	first, rest := after[0], after[1:]
	for _, l := range after {
		if l.Type == workspace.Introspection {
			f.Message = fmt.Sprintf("deep work %s completed by %s; introspection %s followed", c.Decl.ID, first.Path, l.Path)
			return f
		}
	}
	if len(rest) == 0 {
		f.Message = fmt.Sprintf("deep work %s completed by %s; the next log must be introspection", c.Decl.ID, first.Path)
		return f
	}
	next := rest[0]
	if e.beforeBaseline(rest[len(rest)-1].ModTime) {
		f.Message = fmt.Sprintf("deep work %s completed by %s; logs after it predate the watchdog start", c.Decl.ID, first.Path)
		return f
	}
	f.Level = Warning
	f.ProofID = next.ID
	f.Message = fmt.Sprintf("after deep work %s (completed by %s) the next log %s is %s, not introspection", c.Decl.ID, first.Path, next.Path, typeName(next.Type))
	f.Notice = e.notice("Your deep work %s ended with %s, and the log after it (%s) was not an introspection. After deep work, reflect first: "+
		"write your next activity log with create_activity_log with activity_type introspection.", c.Decl.ID, first.Path, next.Path)
	return f
}

func typeName(t workspace.ActivityType) string {
	if t == "" {
		return "of no known type"
	}
	return string(t)
}

func (e *eval) deepWorkExpired() Finding {
	f := Finding{Check: DeepWorkExpired}
	if len(e.expired) == 0 {
		f.Message = "no strict deep work past its deadline"
		return f
	}
	var held []expiry
	for _, x := range e.expired {
		if !e.beforeBaseline(x.deadline) {
			held = append(held, x)
		}
	}
	if len(held) == 0 {
		f.Message = fmt.Sprintf("%d strict declaration(s) expired before the watchdog started; renamed .expired.txt", len(e.expired))
		return f
	}
	x := held[len(held)-1]
	f.Level, f.ProofID, f.Elapsed = Warning, x.decl.ID, e.now.Sub(x.deadline)
	capNote := ""
	if x.capped {
		capNote = fmt.Sprintf(" (capped at max_strict_deep_work %s)", humanize.Duration(e.cfg.Thresholds.MaxStrictDeepWork.D()))
	}
	f.Message = fmt.Sprintf("strict deep work %s (%q) passed its deadline %s%s by %s; renamed %s", x.decl.ID, x.decl.Activity,
		e.clock(x.deadline), capNote, humanize.Duration(f.Elapsed), workspace.DeepWorkName(x.decl.ID, workspace.Expired))
	f.Notice = e.notice("Your strict deep work %s reached its deadline %s and has been marked expired: inactivity counts again from the deadline, and introspection and stale_id apply again. "+
		"In this order: 1. record what you did with create_activity_log now (where a recovery notice asks for a recovery log, that log is this one); 2. make the log after it an introspection (why the planned time was too short); "+
		"3. only if the work goes on, declare again with start_deep_work, with more margin or in flexible mode.",
		x.decl.ID, e.clock(x.deadline))
	return f
}

func (e *eval) invalidDeclaration() Finding {
	f := Finding{Check: InvalidDeclaration}
	inv := e.snap.InvalidDeepWork
	if len(inv) == 0 {
		f.Message = "every declaration is readable"
		return f
	}
	var parts, rels []string
	for _, d := range inv {
		e.actions = append(e.actions, Action{Kind: InvalidateDeclaration, Rel: d.Rel,
			NewRel: path.Dir(d.Rel) + "/" + workspace.DeepWorkName(d.ID, workspace.Invalid)})
		parts = append(parts, fmt.Sprintf("%s (%s)", d.Rel, d.Err))
		rels = append(rels, d.Rel)
	}
	said := strings.Join(parts, "; ")
	if e.cfg.Language == lang.Japanese {
		// The parse errors are English; the file names say enough.
		said = strings.Join(rels, "、")
	}
	f.Level, f.ProofID = Warning, inv[len(inv)-1].ID
	f.Message = "unreadable deep-work declaration renamed .invalid.txt: " + strings.Join(parts, "; ")
	f.Notice = e.notice("A deep-work declaration could not be read and was renamed .invalid.txt, so it pauses nothing: %s. "+
		"Declare deep work with the start_deep_work tool instead of writing the file by hand.", said)
	return f
}
