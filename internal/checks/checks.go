// Package checks holds the watchdog's checks (docs/design.md section 5): pure functions
// of the time, a workspace snapshot, the configuration and the memory of the
// previous pulse. They do no I/O and never read the clock; what they want
// done to the workspace (renames, expired markers removed) comes back as
// Actions the daemon carries out at the edge (its applyActions).
package checks

import (
	"strconv"
	"time"

	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/hook"
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
	ToolLoop           = "tool_loop"
	WaitingForYou      = "waiting_for_you"
	ToolRefused        = "tool_refused"
	ChannelSilent      = "channel_silent"
	NoProgress         = "no_progress"
	HooksOff           = "hooks_off"
)

// Names lists every check in the fixed order of Result.Findings.
var Names = []string{
	Inactivity, Introspection, AfterDeepWork, DeepWorkExpired, InvalidDeclaration,
	FutureID, StaleID, LogLoop, ThemePattern, Feedback, ToolRestriction,
	ToolLoop, WaitingForYou, ToolRefused, ChannelSilent, NoProgress, HooksOff,
}

// Recoverable reports whether an error from check starts recovery: the
// conditions that mean the agent is stuck, looping or forging IDs.
// Introspection errors do not (docs/design.md: no recovery by default).
func Recoverable(check string) bool {
	switch check {
	case Inactivity, StaleID, FutureID, LogLoop, ThemePattern, ToolLoop:
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
	// BaselinePause: the baseline is the end of the operator's pause, not
	// the watchdog's start; the notices name which.
	BaselinePause bool
	// Paused: an operator's pause is in force (the baseline is now, every
	// pulse): inactivity says so rather than naming a pause end.
	Paused bool
	// Loc is the time zone heartbeat IDs are read in; nil = Local.
	Loc *time.Location
	// Work says whether the agent is working or waiting (docs/design.md section 5).
	// The zero value is the always-on design: always working.
	Work Work
	// Language is the language of the notices (messages stay English:
	// they are alert lines); "" is English.
	Language lang.Lang
	// Client is what the agent's client said through its hooks; the zero
	// value is a client without hooks, judged by its files alone.
	Client hook.Activity
	// RecoveryOff: recovery has given up, or waits (for a person, or for
	// the gate): a notice must not say that an error starts it.
	RecoveryOff bool
	// RecoveryAsked: the notice of a give-up that ended stands above the
	// checks' notices and asks for the recovery log itself; the inactivity
	// error points to it rather than asking a second time.
	RecoveryAsked bool
	// Stance is the watchdog's one decision on how an agent in recovery
	// for inactivity is spoken to (StanceOwn: the check's own measure).
	Stance Stance
	// Refusals is what the client refused in the agent's last run or turn.
	Refusals Refusals
	// Channels is when each of the client's channels last spoke.
	Channels Channels
	// Progress is what the agent's work showed around its wakeups.
	Progress Progress
	// HooksOff are the settings in the workspace's client files that turn
	// the client's hooks off.
	HooksOff []HookSwitch
	// Urgent are the feedback files (workspace-relative) handed over as
	// urgent that have since lost their interrupt. prefix: the notice
	// still marks them urgent until they are taken.
	Urgent []string
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
	// Hooked: Working and Since come from a turn the client's hooks show
	// in progress, not from a delivered wakeup.
	Hooked bool
	// HeldUntil is when the model's service's hold on wakeups ends (zero:
	// none), and HeldFor the failure that began it (rate_limit, ...).
	HeldUntil time.Time
	HeldFor   string
	// RetryUntil is when the retry wait the running client announced ends
	// (zero: none this run): inactivity is held off until then, and counts
	// from then after it (the wait was the service's, not the agent's).
	RetryUntil time.Time
	// Ended says what ended the working stretch's last run early, and
	// EndedAt when: the stretch is that run's, not a silent stall.
	Ended   RunEnd
	EndedAt time.Time
}

// RunEnd is what ended an exec run early: Kind is one of the RunEnd kinds,
// Detail its setting's value or the signal's name. The zero RunEnd: the
// run failed by itself, or nothing ended it.
type RunEnd struct{ Kind, Detail string }

// What ends a run early.
const (
	EndToolCap  = "tool_cap"  // agent.max_tool_calls
	EndTokenCap = "token_cap" // budget.per_wakeup_tokens
	EndTimeout  = "timeout"   // agent.timeout
	EndSignal   = "signal"    // a signal from outside the watchdog
)

// In says what ended the run, in language l.
func (r RunEnd) In(l lang.Lang) string {
	switch r.Kind {
	case EndToolCap:
		// The run ends at the call past the cap, seen in the client's
		// stream as it is made: that call may go through, so it is named.
		if n, err := strconv.Atoi(r.Detail); err == nil {
			return ja.F(l, "the tool cap (agent.max_tool_calls: %d) on its tool call %d", n, n+1)
		}
		return ja.F(l, "the tool cap (agent.max_tool_calls: %s)", r.Detail)
	case EndTokenCap:
		return ja.F(l, "the token cap (budget.per_wakeup_tokens: %s)", r.Detail)
	case EndTimeout:
		return ja.F(l, "its timeout (agent.timeout: %s)", r.Detail)
	case EndSignal:
		return ja.F(l, "the signal %s", r.Detail)
	}
	return ""
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
	if t.ToolLoop <= 0 {
		t.ToolLoop = d.Thresholds.ToolLoop
	}
	if t.ChannelSilent <= 0 {
		t.ChannelSilent = d.Thresholds.ChannelSilent
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
	// Fact is what is wrong, with its numbers, in the agent's language: a
	// recoverable check's at warning or above, which the recovery notice
	// names (the alert line is English, for machines).
	Fact string `json:"-"`
	// Brief is the notice in place of Notice where the recovery notice
	// stands beside it (inactivity's error): it points to recovery's
	// steps instead of saying them a second time.
	Brief string `json:"-"`
	// Cut says, in the agent's language, that one of the watchdog's
	// limits (the tool cap, the token cap, the timeout) ended the agent's
	// last run before it wrote its log: the stretch is no stall, and
	// recovery's notice says so.
	Cut string `json:"-"`
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
	// AskPast: the client's hooks say a person is being asked, past what
	// they may hold (HooksAlone times the inactivity thresholds): the wait
	// no longer holds recovery or the working time off either.
	AskPast bool
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
		e.toolLoop(),
		e.waitingForYou(),
		e.toolRefused(),
		e.channelSilent(),
		e.noProgress(),
		e.hooksOff(),
	}}
	r.Actions, r.AskPast = e.actions, e.askPast
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
	askPast     bool // see Result.AskPast
}

// since is now minus the later of t and the baseline; false when both are zero.
func (e *eval) since(t time.Time) (time.Duration, bool) {
	if b := e.baseline(); b.After(t) {
		t = b
	}
	if t.IsZero() {
		return 0, false
	}
	// A wakeup stamped a moment after the pulse's "now" is 0 old, never
	// negative.
	return max(e.now.Sub(t), 0), true
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

// Stance is how an agent at the inactivity error is spoken to, as the
// watchdog decided it once for the recovery attempt: busy in its client's
// tools, its Escape held ("at the next step of your work"), or stuck,
// interrupted ("stop what you were doing"). The recovery notice, the
// inactivity notice and the Escape follow the one decision.
type Stance int

// The stances.
const (
	StanceOwn   Stance = iota // the check's own measure: the hooks alone held inactivity off
	StanceBusy                // busy, not interrupted
	StanceStuck               // stuck, interrupted
)
