// Package checks holds the watchdog's checks (docs/design.md section 5): pure functions
// of the time, a workspace snapshot, the configuration and the memory of the
// previous pulse. They do no I/O and never read the clock; what they want
// done to the workspace (renames, expired markers removed) comes back as
// Actions that Apply carries out at the edge.
package checks

import (
	"fmt"
	"path"
	"sort"
	"strings"
	"time"

	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/humanize"
	"github.com/ai-heart/ai-heart/internal/lang"
	"github.com/ai-heart/ai-heart/internal/scan"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// Check names, as they appear in alerts and the state file.
const (
	Inactivity         = "inactivity"
	Introspection      = "introspection"
	AfterDeepWork      = "after_deep_work"
	DeepWorkExpired    = "deep_work_expired"
	InvalidDeclaration = "invalid_declaration"
	FutureID           = "future_id"
	StaleID            = "stale_id"
	LogLoop            = "log_loop"
	ThemePattern       = "theme_pattern"
	Feedback           = "feedback"
	ToolRestriction    = "tool_restriction"
)

// Names lists every check in the fixed order of Result.Findings.
var Names = []string{
	Inactivity, Introspection, AfterDeepWork, DeepWorkExpired, InvalidDeclaration,
	FutureID, StaleID, LogLoop, ThemePattern, Feedback, ToolRestriction,
}

// Recoverable reports whether an error from check starts recovery: the
// conditions that mean the agent is stuck, looping or forging IDs.
// Introspection errors do not (docs/design.md: no recovery by default).
func Recoverable(check string) bool {
	switch check {
	case Inactivity, StaleID, FutureID, LogLoop, ThemePattern:
		return true
	}
	return false
}

// Config is what the checks need from the configuration.
type Config struct {
	// Thresholds; zero fields take the defaults of config.Defaults (5m, 10m, 30m, 30m).
	Thresholds config.Thresholds
	// Restrictions say how long markers without until/duration last; zero
	// fields take the defaults (cooldown 10m, lock 60m).
	Restrictions config.Restrictions
	// Baseline is the watchdog's start: nothing older is held against the
	// agent, so a restart does not fire stale alarms. Zero = no baseline.
	Baseline time.Time
	// Loc is the time zone heartbeat IDs are read in; nil = Local.
	Loc *time.Location
	// Work says whether the agent is working or waiting (docs/design.md section 5).
	// The zero value is the always-on design: always working.
	Work Work
	// Language is the language of the notices (messages stay English:
	// they are alert lines); "" is English.
	Language lang.Lang
}

// Work is where the agent stands between wakeups. The agent is working from
// a delivered wakeup until it answers it (exec: the run ends; tmux and
// inbox: an activity log after the wakeup); after that it is waiting, and
// waiting is healthy.
type Work struct {
	// Scheduled is true when a schedule or the idle chamber wakes the
	// agent. False is the always-on design: the agent is always working,
	// and inactivity and introspection run on wall-clock time.
	Scheduled bool
	// Working is true while a delivered wakeup is unanswered.
	Working bool
	// Since is when that wakeup was delivered.
	Since time.Time
	// Worked is the working time since the last introspection (or the
	// watchdog's start): introspection is owed per working time.
	Worked time.Duration
}

// withDefaults fills zero fields, so a Config built in a hurry never turns
// every marker into an expired one or every pulse into an error.
func (c Config) withDefaults() Config {
	d := config.Defaults()
	t := &c.Thresholds
	if t.InactivityWarning <= 0 {
		t.InactivityWarning = d.Thresholds.InactivityWarning
	}
	if t.InactivityError <= 0 {
		t.InactivityError = d.Thresholds.InactivityError
	}
	if t.Introspection <= 0 {
		t.Introspection = d.Thresholds.Introspection
	}
	if t.MaxStrictDeepWork <= 0 {
		t.MaxStrictDeepWork = d.Thresholds.MaxStrictDeepWork
	}
	if c.Restrictions.Cooldown <= 0 {
		c.Restrictions.Cooldown = d.Restrictions.Cooldown
	}
	if c.Restrictions.Lock <= 0 {
		c.Restrictions.Lock = d.Restrictions.Lock
	}
	if c.Loc == nil {
		c.Loc = time.Local
	}
	return c
}

// Finding is one check's verdict for one pulse.
type Finding struct {
	// Check is one of Names.
	Check string `json:"check"`
	Level Level  `json:"level"`
	// Message is for people and the alert line.
	Message string `json:"message"`
	// Notice is for the agent's next heartbeat prompt: what happened and
	// which tool to use. "" when the level is OK.
	Notice string `json:"notice,omitempty"`
	// Elapsed is the duration the check judged (0 if none).
	Elapsed time.Duration `json:"elapsed,omitempty"`
	// ProofID is the heartbeat ID of the file concerned, if any.
	ProofID workspace.ID `json:"proof_id,omitempty"`
}

// State is the checks' memory between pulses; it is JSON-serialisable so the
// daemon can keep it in its state file.
type State struct {
	// LastLog and LastLogModTime are the newest activity log seen last pulse.
	LastLog        string    `json:"last_log,omitempty"`
	LastLogModTime time.Time `json:"last_log_mod_time,omitzero"`
	// Rewrites counts consecutive pulses in which LastLog changed in place.
	Rewrites int `json:"rewrites,omitempty"`
	// StrictEnded is the deadline of the last strict deep work that
	// expired: inactivity counts from it, since the pause held until then.
	StrictEnded time.Time `json:"strict_ended,omitzero"`
}

// ActionKind names what an Action does.
type ActionKind string

// Action kinds. Every one is a rename that never clobbers, except
// RemoveMarker, which removes an expired tool restriction marker (docs/design.md section 5).
const (
	ExpireDeclaration     ActionKind = "expire_declaration"
	InvalidateDeclaration ActionKind = "invalidate_declaration"
	CompleteDeclaration   ActionKind = "complete_declaration"
	StripInterrupt        ActionKind = "strip_interrupt"
	RemoveMarker          ActionKind = "remove_marker"
)

// Action is a change to the workspace the checks ask for. Rel and NewRel are
// workspace-relative; NewRel is empty for RemoveMarker.
type Action struct {
	Kind   ActionKind `json:"kind"`
	Rel    string     `json:"rel"`
	NewRel string     `json:"new_rel,omitempty"`
}

// Result is one pulse's verdict.
type Result struct {
	// Findings has one entry per check, OK included, in the order of Names.
	Findings []Finding
	// Actions are applied by the pulse right after Evaluate, before it alerts
	// on level changes; the findings describe the workspace before them.
	Actions []Action
}

// Worst is the highest level among the findings.
func (r Result) Worst() Level {
	w := OK
	for _, f := range r.Findings {
		if f.Level > w {
			w = f.Level
		}
	}
	return w
}

// Level is the level of the named check, OK when it is absent.
func (r Result) Level(check string) Level {
	if f, ok := r.Finding(check); ok {
		return f.Level
	}
	return OK
}

// Finding returns the named check's finding.
func (r Result) Finding(check string) (Finding, bool) {
	for _, f := range r.Findings {
		if f.Check == check {
			return f, true
		}
	}
	return Finding{}, false
}

// Evaluate runs every check on snap at now. It is pure: the same inputs give
// the same Result and State.
func Evaluate(now time.Time, snap scan.Snapshot, cfg Config, prev State) (Result, State) {
	e := &eval{now: now, snap: snap, cfg: cfg.withDefaults(), strictEnded: prev.StrictEnded}
	e.classifyDeepWork()
	for _, x := range e.expired {
		if x.deadline.After(e.strictEnded) && !x.deadline.After(now) {
			e.strictEnded = x.deadline
		}
	}
	loop, next := e.logLoop(prev)
	next.StrictEnded = e.strictEnded
	r := Result{Findings: []Finding{
		e.inactivity(),
		e.introspection(),
		e.afterDeepWork(),
		e.deepWorkExpired(),
		e.invalidDeclaration(),
		e.futureID(),
		e.staleID(),
		loop,
		e.themePattern(),
		e.feedback(),
		e.toolRestriction(),
	}}
	r.Actions = e.actions
	return r, next
}

// eval carries one evaluation's inputs and what the deep-work reading found.
type eval struct {
	now         time.Time
	strictEnded time.Time // see State.StrictEnded
	snap        scan.Snapshot
	cfg         Config

	strict      *workspace.Declaration // an active strict declaration before its deadline
	strictUntil time.Time              // the latest such deadline
	active      *workspace.Declaration // any declaration still active
	expired     []expiry
	actions     []Action
}

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

// since is now minus the later of t and the baseline; false when both are zero.
func (e *eval) since(t time.Time) (time.Duration, bool) {
	if b := e.baseline(); b.After(t) {
		t = b
	}
	if t.IsZero() {
		return 0, false
	}
	return e.now.Sub(t), true
}

// beforeBaseline reports whether t is older than the baseline.
func (e *eval) beforeBaseline(t time.Time) bool {
	return !e.cfg.Baseline.IsZero() && t.Before(e.baseline())
}

// baseline is the watchdog's start at the IDs' resolution (whole seconds):
// an ID the watchdog minted in its first second is not before its start.
func (e *eval) baseline() time.Time { return e.cfg.Baseline.Truncate(time.Second) }

func (e *eval) clock(t time.Time) string { return t.In(e.cfg.Loc).Format("15:04:05") }

// notice formats a notice for the agent in its language.
func (e *eval) notice(format string, args ...any) string {
	return ja.F(e.cfg.Language, format, args...)
}

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
		return f
	}
	f.Message = fmt.Sprintf("no activity log or checkpoint for %s (warning after %s, error after %s; %s)", humanize.Duration(el), humanize.Duration(warn), humanize.Duration(errT), what)
	f.Notice = e.notice("No activity log or checkpoint for %s. If you are still working, write a checkpoint with a short note of what you are doing. "+
		"If the work needs a long stretch, declare it with start_deep_work (flexible: checkpoints still count; strict: inactivity, introspection and stale_id pause until its deadline). "+
		"When the activity is done, record it with create_activity_log.", humanize.Duration(el))
	return f
}

func (e *eval) introspection() Finding {
	f := Finding{Check: Introspection}
	var t time.Time
	what := "no introspection log"
	if p := e.snap.LastIntrospection; p != nil {
		t, f.ProofID = p.ModTime, p.ID
		what = "last introspection " + p.Path
	}
	el, ok := e.since(t)
	of := ""
	if e.cfg.Work.Scheduled {
		// Owed per working time: waiting does not make it due.
		el, ok, of = e.cfg.Work.Worked, true, " of working time"
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
	f.Notice = e.notice("You have not reflected for %s%s (introspection is due every %s). Look back on your recent activity and record it with "+
		"create_activity_log with activity_type introspection. If you are in the middle of long work, call start_deep_work (flexible) to pause this check.",
		humanize.Duration(el), e.notice(of), humanize.Duration(limit))
	return f
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
	f.Notice = e.notice("Your strict deep work %s reached its deadline %s and has been marked expired, so the inactivity, introspection and stale_id checks apply again. "+
		"Record what you did with create_activity_log; if you need longer, write that log and declare again with start_deep_work.",
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
	var parts []string
	for _, d := range inv {
		e.actions = append(e.actions, Action{Kind: InvalidateDeclaration, Rel: d.Rel,
			NewRel: path.Dir(d.Rel) + "/" + workspace.DeepWorkName(d.ID, workspace.Invalid)})
		parts = append(parts, fmt.Sprintf("%s (%s)", d.Rel, d.Err))
	}
	f.Level, f.ProofID = Warning, inv[len(inv)-1].ID
	f.Message = "unreadable deep-work declaration renamed .invalid.txt: " + strings.Join(parts, "; ")
	f.Notice = e.notice("A deep-work declaration could not be read and was renamed .invalid.txt, so it pauses nothing: %s. "+
		"Declare deep work with the start_deep_work tool instead of writing the file by hand.", strings.Join(parts, "; "))
	return f
}

// proofTimes returns the newest proof and its ID's time, if it is judged:
// it exists, its ID reads, and it is not older than the baseline.
func (e *eval) proofTimes() (*workspace.Proof, time.Time, bool) {
	p := e.snap.NewestProof()
	if p == nil || e.beforeBaseline(p.ModTime) {
		return nil, time.Time{}, false
	}
	t, err := p.ID.Time(e.cfg.Loc)
	if err != nil {
		return nil, time.Time{}, false
	}
	return p, t, true
}

func (e *eval) futureID() Finding {
	f := Finding{Check: FutureID, Message: "no proof named with a future ID"}
	p, idt, ok := e.proofTimes()
	if !ok || !idt.After(e.now) {
		return f
	}
	f.Level, f.ProofID, f.Elapsed = Error, p.ID, idt.Sub(e.now)
	f.Message = fmt.Sprintf("newest proof %s is named with ID %s, %s in the future", p.Path, p.ID, humanize.Duration(f.Elapsed))
	f.Notice = e.notice("Your newest proof %s is named with heartbeat ID %s, which is later than now. Never invent an ID: "+
		"let the tools (checkpoint, create_activity_log) name files; they read the current ID themselves.", p.Path, p.ID)
	return f
}

func (e *eval) staleID() Finding {
	f := Finding{Check: StaleID, Message: "newest proof uses a current ID"}
	p, idt, ok := e.proofTimes()
	if !ok {
		return f
	}
	t := e.cfg.Thresholds
	age := p.ModTime.Sub(idt)
	f.ProofID, f.Elapsed = p.ID, age
	if e.now.Sub(p.ModTime) > t.InactivityError.D() {
		f.Message = fmt.Sprintf("newest proof %s is not new; not judged", p.Path)
		return f
	}
	if e.strict != nil {
		f.Message = fmt.Sprintf("newest proof %s written %s after its ID; paused by strict deep work %s", p.Path, humanize.Duration(age), e.strict.ID)
		return f
	}
	switch {
	case age > t.InactivityError.D():
		f.Level = Error
	case age > t.InactivityWarning.D():
		f.Level = Warning
	default:
		f.Message = fmt.Sprintf("newest proof %s written %s after its ID", p.Path, humanize.Duration(age))
		return f
	}
	f.Message = fmt.Sprintf("newest proof %s was written %s after its ID %s (warning after %s, error after %s): an old ID reused", p.Path, humanize.Duration(age), p.ID,
		humanize.Duration(t.InactivityWarning.D()), humanize.Duration(t.InactivityError.D()))
	f.Notice = e.notice("Your newest proof %s is named with heartbeat ID %s, %s older than when it was written: an old ID was reused. "+
		"You never need an ID: let the tools (checkpoint, create_activity_log) name files; they read the current ID themselves.", p.Path, p.ID, humanize.Duration(age))
	return f
}

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
	f.Notice = e.notice("%d theme start/end records were written in the same heartbeat (%s): themes are being started and ended in a loop. "+
		"Stop, read artifacts/theme_histories/ to see where you are, and continue the current theme; start or end a theme (start_theme, end_theme) only once per decision.",
		n, e.snap.ThemeRecordID)
	return f
}

func (e *eval) feedback() Finding {
	f := Finding{Check: Feedback}
	items := e.snap.Feedback
	if len(items) == 0 {
		f.Message = "no unprocessed feedback"
		return f
	}
	taken := map[string]bool{}
	for _, it := range items {
		taken[it.Name] = true
	}
	var names []string
	for _, it := range items {
		n := it.Name
		if it.Interrupt {
			n = freeName(strings.TrimPrefix(it.Name, "interrupt."), taken)
			taken[n] = true
			e.actions = append(e.actions, Action{Kind: StripInterrupt, Rel: it.Rel, NewRel: path.Dir(it.Rel) + "/" + n})
			names = append(names, workspace.FeedbackboxDir+"/"+n+" (urgent)")
			continue
		}
		names = append(names, workspace.FeedbackboxDir+"/"+n)
	}
	f.Level = Info
	f.Message = fmt.Sprintf("%d unprocessed feedback file(s): %s", len(items), strings.Join(names, ", "))
	f.Notice = e.notice("Feedback from the user is waiting: %s. Read each file and act on it, then rename it to processed.<name> "+
		"in feedbackbox/ so it is not reported again.", strings.Join(names, ", "))
	return f
}

// freeName returns name, or name with -2, -3... before its extension, the
// first not already in the inbox: stripping "interrupt." must never clobber.
func freeName(name string, taken map[string]bool) string {
	if !taken[name] {
		return name
	}
	ext := path.Ext(name)
	base := strings.TrimSuffix(name, ext)
	for i := 2; ; i++ {
		if n := fmt.Sprintf("%s-%d%s", base, i, ext); !taken[n] {
			return n
		}
	}
}

func (e *eval) toolRestriction() Finding {
	f := Finding{Check: ToolRestriction}
	var in []string
	for _, m := range e.snap.Restrictions {
		until := m.Until
		if until.IsZero() {
			d := e.cfg.Restrictions.Cooldown.D()
			if m.Kind == scan.Lock {
				d = e.cfg.Restrictions.Lock.D()
			}
			until = m.Since.Add(d)
		}
		if !e.now.Before(until) {
			e.actions = append(e.actions, Action{Kind: RemoveMarker, Rel: m.Rel})
			continue
		}
		in = append(in, fmt.Sprintf("%s (%s until %s)", m.Tool, m.Kind, e.clock(until)))
	}
	if len(in) == 0 {
		f.Message = "no tool restrictions in force"
		return f
	}
	sort.Strings(in)
	f.Level = Info
	f.Message = "tool restrictions in force: " + strings.Join(in, ", ")
	f.Notice = e.notice("These tools are restricted for now: %s. Do not use them until then; choose another activity meanwhile.", strings.Join(in, ", "))
	return f
}
