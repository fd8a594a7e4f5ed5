package tools

import (
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	"github.com/rs/zerolog"

	"github.com/ai-heart/ai-heart/internal/clock"
	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/humanize"
	"github.com/ai-heart/ai-heart/internal/lang"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// Tools runs the mcp-heart tools on one workspace. It is safe for concurrent
// use: every call reads what it needs from the files themselves.
type Tools struct {
	// WS is the workspace; its Loc is the timezone IDs are read in.
	WS *workspace.Workspace
	// Thresholds are the watchdog's limits, so messages and alerts agree.
	Thresholds config.Thresholds
	// FollowWatchdog: no config names the limits (mcp-heart started with no
	// -c), so they are the running watchdog's, as its published state says
	// at each call: a session outlives the watchdog's restarts and
	// reloads, and may have begun before it.
	FollowWatchdog bool
	live           atomic.Pointer[config.Thresholds]
	// Restrictions are the durations of report_tool_usage's markers; zero
	// fields take the defaults.
	Restrictions config.Restrictions
	// Lang is the language of tool texts and replies; "" is English.
	Lang lang.Lang
	// Pulse is the watchdog's pulse interval, how often a new heartbeat ID
	// comes; zero takes the default.
	Pulse time.Duration
	// Clock tells the time; nil means real time.
	Clock clock.Clock
	// Log receives one line per call (stderr in mcp-heart); the zero value
	// logs nothing.
	Log zerolog.Logger

	// mkdirAll makes a folder inside the workspace; nil means WS.MkdirAll.
	// Tests make it fail, which root cannot be made to see through
	// permissions.
	mkdirAll func(rel string) error
	// said is what this session's replies have said in full.
	said saidOnce
}

// New returns Tools for ws with the given thresholds and real time.
func New(ws *workspace.Workspace, th config.Thresholds, log zerolog.Logger) *Tools {
	return &Tools{WS: ws, Thresholds: th, Log: log}
}

// limits are the thresholds replies quote: the running watchdog's, when
// they follow it and it has published them, else Thresholds.
func (t *Tools) limits() config.Thresholds {
	if p := t.live.Load(); p != nil {
		return *p
	}
	return t.Thresholds
}

// tr is s in the agent's language; trf formats it.
func (t *Tools) tr(s string) string { return ja.T(t.Lang, s) }

func (t *Tools) trf(format string, args ...any) string { return ja.F(t.Lang, format, args...) }

// tr is s in language l, for the replies' Text methods.
func tr(l lang.Lang, s string) string { return ja.T(l, s) }

// pulse is the watchdog's pulse interval, as the agent is told it.
func (t *Tools) pulse() humanize.Span {
	if t.Pulse > 0 {
		return humanize.Span(t.Pulse)
	}
	return humanize.Span(config.Defaults().Pulse.Interval.D())
}

func (t *Tools) now() time.Time { return clock.Or(t.Clock).Now().In(t.WS.Loc) }

// InputError is a bad call the agent can fix: which field was wrong, what was
// wrong with it, and what to send instead. Nothing has been written when a
// tool returns one. Its words are rendered in the agent's language by In;
// Error is English.
type InputError struct {
	Field   string // the parameter, "" when the problem is not one field's
	Problem say
	Fix     say
	All     []*InputError // the problems an error of several parameters joins
}

// Error reads as "field: problem. Fix: ...".
func (e *InputError) Error() string { return e.In(lang.English) }

// In is the error in language l: "field: problem. Fix: ..." in English.
func (e *InputError) In(l lang.Lang) string {
	var b strings.Builder
	if e.Field != "" {
		b.WriteString(e.Field + ": ")
	}
	if len(e.All) > 0 {
		// Each part carries its own fix; one closing sentence, not a
		// second "Fix:" after the last part's.
		parts := make([]string, len(e.All))
		for i, x := range e.All {
			parts[i] = fmt.Sprintf(ja.T(l, "(%d) %s"), i+1, x.In(l)) // each ends as a sentence
		}
		// Japanese runs sentences on after 。 with no space: an ASCII
		// space there reads as a stray gap.
		sep := " "
		if l == lang.Japanese {
			sep = ""
		}
		b.WriteString(sayf("%d parameters need fixing. %s", len(e.All), strings.Join(parts, sep)).in(l))
		if !e.Fix.empty() {
			b.WriteString(sep + e.Fix.in(l))
		}
		return b.String()
	}
	b.WriteString(e.Problem.in(l))
	if !e.Fix.empty() {
		b.WriteString(ja.T(l, ". Fix: ") + e.Fix.in(l))
	}
	// A single error ends as a sentence, as each part of several does.
	if end := ja.T(l, "."); !strings.HasSuffix(b.String(), end) {
		b.WriteString(end)
	}
	return b.String()
}

func badField(field string, problem, fix say) error {
	return &InputError{Field: field, Problem: problem, Fix: fix}
}

// problems collects every bad parameter of a call, so the agent can fix them
// all at once instead of learning of them one retry at a time.
type problems []error

// add records err (nil is nothing).
func (p *problems) add(err error) { *p = append(*p, err) }

// err is nil, the one problem, or every bad parameter in one InputError. An
// error that is not the agent's to fix (a failing disk) wins over them.
func (p problems) err() error {
	var bad []*InputError
	for _, e := range p {
		var ie *InputError
		switch {
		case e == nil:
		case errors.As(e, &ie) && len(ie.All) > 0:
			bad = append(bad, ie.All...)
		case errors.As(e, &ie):
			bad = append(bad, ie)
		default:
			return e
		}
	}
	switch len(bad) {
	case 0:
		return nil
	case 1:
		return bad[0]
	}
	return &InputError{Fix: sayf("Fix each one as it says, then call again."), All: bad}
}

// currentID reads the heartbeat ID the watchdog minted last.
func (t *Tools) currentID() (workspace.ID, error) {
	id, err := t.WS.ReadCurrentID()
	if errors.Is(err, workspace.ErrNoCurrentID) {
		return "", &InputError{
			Problem: sayf("the watchdog has not minted a heartbeat ID yet (%s in %s is missing or not 14 digits)", workspace.CurrentIDFile, t.WS.Root),
			Fix:     sayf("start the watchdog on this workspace (`watchdog run`) and wait for its first pulse (within %s), then call this tool again; if it is running, make sure mcp-heart's --workspace (or AI_WORKS_DIR) names the same folder as the watchdog's workspace", t.pulse()),
		}
	}
	if err != nil {
		return "", err
	}
	return id, nil
}

// since is now minus t in whole seconds, or nil when t is unknown.
func since(now time.Time, p *workspace.Proof) *int64 {
	if p == nil {
		return nil
	}
	s := int64(max(now.Sub(p.ModTime), 0).Round(time.Second) / time.Second)
	return &s
}

// humanSec renders optional seconds in language l, none when nil.
func humanSec(l lang.Lang, s *int64, none string) string {
	if s == nil {
		return none
	}
	return humanize.DurationIn(l, time.Duration(*s)*time.Second)
}

// activeDeclaration is an active deep-work file, parsed when possible; one
// that does not parse or read still counts as active until it is handled.
type activeDeclaration = workspace.DeepWorkFile

// activeDeclarations lists stats/deep_work/<ID>.txt files, oldest ID first,
// through the workspace's one reader of that folder.
func (t *Tools) activeDeclarations() ([]activeDeclaration, error) {
	return t.WS.ReadActiveDeepWork()
}

// inForce reports whether a declaration still pauses checks at now: flexible
// ones until the next log, strict ones until their deadline.
func inForce(a activeDeclaration, now time.Time) bool {
	if a.ParseErr != nil || a.ReadErr != nil {
		return false
	}
	return a.Decl.Mode == workspace.Flexible || now.Before(a.Decl.Deadline)
}

// stageNote is the advice for a cycle that has run for cycle: a gentle
// notice at the inactivity warning, a suggestion to split at the error. It
// says nothing while deep work is in force: that long cycle was declared.
func (t *Tools) stageNote(cycle *int64, deepWork bool) (stage, note string) {
	return t.cycleNote(cycle, deepWork)
}

// closedNote is the note of the log that has just closed the cycle: it
// looks back on the longest stretch the watchdog counted against it, gap
// (from the newest proof, tool call, wakeup or strict deadline before this
// log), so it agrees with the inactivity check: it names a threshold only
// if the check saw it crossed, and never asks for the log it answers.
func (t *Tools) closedNote(gap *int64, deepWork bool) (stage, note string) {
	if gap == nil || deepWork {
		return "", ""
	}
	d := time.Duration(*gap) * time.Second
	th := t.limits()
	switch {
	case d > th.InactivityError.D():
		return "split", t.trf("Before this log, %s passed with no proof of activity, past the inactivity error (%s). Next time, write a checkpoint at each natural break, or close what is done with an activity log and go on in the next cycle; for work that cannot stop for either, declare it first with start_deep_work.", humanize.Span(d), humanize.Span(th.InactivityError.D()))
	case d > th.InactivityWarning.D():
		return "notice", t.trf("Before this log, %s passed with no proof of activity, past the inactivity warning (%s). On long work, write a checkpoint at each natural break.", humanize.Span(d), humanize.Span(th.InactivityWarning.D()))
	}
	return "", ""
}

// cycleLevel is how far a cycle of seconds has run: 0 under the
// inactivity warning, 1 past it, 2 past the error.
func (t *Tools) cycleLevel(seconds int64) int {
	d, th := time.Duration(seconds)*time.Second, t.limits()
	switch {
	case d >= th.InactivityError.D():
		return 2
	case d >= th.InactivityWarning.D():
		return 1
	}
	return 0
}

// cycleTold reports whether the checkpoint sinceCheckpoint seconds ago,
// in this cycle of cycle seconds, came after the cycle reached the level
// it is at now: its reply carried the cycle's note, and saying it again
// on every call only costs the agent tokens.
func (t *Tools) cycleTold(cycle, sinceCheckpoint *int64) bool {
	if cycle == nil || sinceCheckpoint == nil || *sinceCheckpoint > *cycle {
		return false
	}
	return t.cycleLevel(*cycle-*sinceCheckpoint) >= t.cycleLevel(*cycle)
}

func (t *Tools) cycleNote(cycle *int64, deepWork bool) (stage, note string) {
	if cycle == nil || deepWork {
		return "", ""
	}
	d, th := time.Duration(*cycle)*time.Second, t.limits()
	switch {
	case d >= th.InactivityError.D():
		return "split", t.trf("This cycle has run %s. At a natural break, consider closing what is done with an activity log and going on in a new cycle; for work that needs longer, start_deep_work declares it.", humanize.Span(d))
	case d >= th.InactivityWarning.D():
		return "notice", t.trf("This cycle has run %s. When you reach a natural break, close it with an activity log, or write a checkpoint if the work goes on.", humanize.Span(d))
	}
	return "", ""
}

// writeNotices adds the watchdog's current notices to a reply's text,
// saying how old the pulse they come from is.
func writeNotices(b *strings.Builder, l lang.Lang, notices []string, age *int64) {
	if len(notices) == 0 {
		return
	}
	if age != nil && *age == 0 {
		b.WriteString(tr(l, "The watchdog's notices from its pulse just now:\n"))
	} else {
		fmt.Fprintf(b, tr(l, "The watchdog's notices from its pulse %s ago:\n"), humanSec(l, age, humanize.DurationIn(l, 0)))
	}
	for _, n := range notices {
		b.WriteString("- " + strings.ReplaceAll(n, "\n", "\n  ") + "\n")
	}
}
