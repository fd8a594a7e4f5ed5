package tools

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/ai-heart/ai-heart/internal/checks"
	"github.com/ai-heart/ai-heart/internal/humanize"
	"github.com/ai-heart/ai-heart/internal/lang"
	"github.com/ai-heart/ai-heart/internal/state"
	"github.com/ai-heart/ai-heart/internal/tools/toolnames"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// DeepWorkStatus is the declaration in force.
type DeepWorkStatus struct {
	File             string `json:"file"`                        // the declaration, stats/deep_work/<ID>.txt
	Mode             string `json:"mode"`                        // flexible or strict
	Activity         string `json:"activity"`                    // what was declared
	ElapsedSeconds   int64  `json:"elapsed_seconds"`             // seconds since the declaration
	Deadline         string `json:"deadline,omitempty"`          // strict only: RFC 3339 deadline
	RemainingSeconds *int64 `json:"remaining_seconds,omitempty"` // strict only: seconds until the deadline
}

// ThresholdStatus is one watchdog threshold and how far away it is.
type ThresholdStatus struct {
	Check            string `json:"check"`                       // the watchdog check: inactivity or introspection
	Level            string `json:"level"`                       // the alert level at this threshold: info, warning or error
	ThresholdSeconds int64  `json:"threshold_seconds"`           // the threshold
	RemainingSeconds *int64 `json:"remaining_seconds,omitempty"` // seconds until it is crossed (0 when already crossed), as the watchdog counts (introspection: working time); absent while waiting, for inactivity while strict deep work is in force, or when the watchdog cannot be read
	Deadline         string `json:"deadline,omitempty"`          // inactivity while working: RFC 3339 time it is crossed unless you write a log or checkpoint first
	Crossed          bool   `json:"crossed"`                     // whether it is crossed now
	Paused           bool   `json:"paused"`                      // whether this check is paused now: by deep work, or by the operator's pause
}

var elapsedTool = define(toolnames.GetHeartbeatElapsedTime, "Get heartbeat elapsed time", reads, (*Tools).GetHeartbeatElapsedTime,
	"Read-only status, as the watchdog's checks judge it: working or waiting, since when, each threshold (inactivity: %s and %s of working time without proof) "+
		"with the time left until it and whether it is crossed, deep work in force and its time left, the time since your latest activity log, checkpoint and introspection, "+
		"and the watchdog's current notices.",
	func(t *Tools) any { return humanize.Span(t.Thresholds.InactivityWarning.D()) },
	func(t *Tools) any { return humanize.Span(t.Thresholds.InactivityError.D()) })

// ElapsedResult is the reply of get_heartbeat_elapsed_time.
type ElapsedResult struct {
	HeartbeatID                string            `json:"heartbeat_id"`                               // the current heartbeat ID
	HeartbeatAgeSeconds        *int64            `json:"heartbeat_age_seconds,omitempty"`            // seconds since the current ID was minted
	LastLog                    string            `json:"last_log,omitempty"`                         // the latest activity log
	SinceLastLogSeconds        *int64            `json:"since_last_log_seconds,omitempty"`           // seconds since the latest activity log
	LastCheckpointMessage      string            `json:"last_checkpoint_message,omitempty"`          // what the latest checkpoint said
	SinceLastCheckpointSeconds *int64            `json:"since_last_checkpoint_seconds,omitempty"`    // seconds since the latest checkpoint
	SinceLastIntrospectionSecs *int64            `json:"since_last_introspection_seconds,omitempty"` // seconds since the latest introspection log
	DeepWork                   *DeepWorkStatus   `json:"deep_work,omitempty"`                        // the deep work in force, if any
	Work                       string            `json:"work"`                                       // working (a wakeup is unanswered), waiting (nothing is due), always (no schedule: always working), waiting_for_you, paused (the operator paused the watchdog: inactivity and introspection are not judged), or unknown (no watchdog is running, or no proof yet)
	StretchStart               string            `json:"stretch_start,omitempty"`                    // RFC 3339 start of the stretch inactivity counts from (the newest proof, tool call or unanswered wakeup); absent while waiting and during strict deep work
	NotJudged                  string            `json:"not_judged,omitempty"`                       // why mcp-heart cannot say which thresholds are crossed
	Thresholds                 []ThresholdStatus `json:"thresholds"`                                 // each watchdog threshold and the time until it is crossed
	Stage                      string            `json:"stage"`                                      // empty, notice (this cycle, from your latest log or the wakeup if later, has run past the inactivity warning) or split (past the error: split your work)
	StageNote                  string            `json:"-"`                                          // in the reply's text, which leads the structure: not said twice
	PendingNoticesHeartbeatID  string            `json:"pending_notices_heartbeat_id,omitempty"`     // the heartbeat ID of the watchdog pulse the notices come from
	PendingNotices             []string          `json:"-"`                                          // in the reply's text, which leads the structure: not said twice
	NoticesAgeSeconds          *int64            `json:"notices_age_seconds,omitempty"`              // how old the pulse the notices come from is
	// recoveryCheck is the check that held recovery when it gave up.
	recoveryCheck string
	Quiet         *QuietStatus `json:"quiet,omitempty"`       // why no wakeup comes now, when something holds them back
	NextWakeup    string       `json:"next_wakeup,omitempty"` // RFC 3339 time of the next scheduled wakeup, when one is due
	Hooks         *HooksStatus `json:"hooks,omitempty"`       // whether your client's hooks reach the watchdog; absent when no watchdog is running
}

func (r *ElapsedResult) heartbeatID() string { return r.HeartbeatID }

// Text is the reply in words.
func (r *ElapsedResult) Text(l lang.Lang) string {
	var b strings.Builder
	fmt.Fprintf(&b, tr(l, "Current heartbeat ID: %s (the tools use it for you).\n"), r.HeartbeatID)
	if r.LastLog != "" {
		fmt.Fprintf(&b, tr(l, "Since latest activity log: %s (%s).\n"), humanSec(l, r.SinceLastLogSeconds, ""), r.LastLog)
	} else {
		fmt.Fprintf(&b, tr(l, "Since latest activity log: %s.\n"), humanSec(l, r.SinceLastLogSeconds, tr(l, "no log yet")))
	}
	if r.SinceLastCheckpointSeconds != nil {
		fmt.Fprintf(&b, tr(l, "Since latest checkpoint: %s (%q).\n"), humanSec(l, r.SinceLastCheckpointSeconds, ""), r.LastCheckpointMessage)
	} else {
		b.WriteString(tr(l, "Since latest checkpoint: no checkpoint yet.\n"))
	}
	fmt.Fprintf(&b, tr(l, "Since latest introspection: %s.\n"), humanSec(l, r.SinceLastIntrospectionSecs, tr(l, "no introspection log yet")))
	if d := r.DeepWork; d != nil {
		fmt.Fprintf(&b, tr(l, "Deep work in force: %s, %q (%s), for %s"), d.Mode, d.Activity, d.File, humanize.DurationIn(l, time.Duration(d.ElapsedSeconds)*time.Second))
		if d.RemainingSeconds != nil {
			fmt.Fprintf(&b, tr(l, ", %s left until %s"), humanSec(l, d.RemainingSeconds, ""), clockIn(d.Deadline))
		}
		b.WriteString(tr(l, ".\n"))
	} else {
		b.WriteString(tr(l, "No deep work in force.\n"))
	}
	// Paused, nothing is judged: no count, no threshold to come (the
	// quiet line below says so).
	paused := r.Quiet != nil && r.Quiet.Why == state.BlockedPaused
	switch {
	case paused:
	case r.Work == workWaiting:
		// Never "nothing is due" beside a notice that asks for something.
		switch {
		case standingNotices(r.PendingNotices):
			b.WriteString(tr(l, "Waiting for the next wakeup: inactivity is not counted while you wait, but the notices below still stand: answer them before you wait.\n"))
		case r.NextWakeup != "" && r.Quiet == nil:
			fmt.Fprintf(&b, tr(l, "Waiting for the next wakeup, due at %s: nothing is due before it, and inactivity is not counted while you wait.\n"), clockIn(r.NextWakeup))
		default:
			b.WriteString(tr(l, "Waiting for the next wakeup: inactivity is not counted while you wait.\n"))
		}
	case r.Work == workAsking:
		b.WriteString(tr(l, "Waiting for a person to answer: inactivity is not counted meanwhile.\n"))
	case r.Work == workUnknown:
		fmt.Fprintf(&b, tr(l, "The watchdog's checks cannot be judged now: %s.\n"), tr(l, r.NotJudged))
	default:
		if d := r.DeepWork; d != nil && d.RemainingSeconds != nil {
			fmt.Fprintf(&b, tr(l, "Inactivity is paused by strict deep work until %s.\n"), clockIn(d.Deadline))
		} else if start, err := time.Parse(time.RFC3339, r.StretchStart); err == nil {
			fmt.Fprintf(&b, tr(l, "Inactivity counts from %s.\n"), clockOf(start))
		}
	}
	// The text names only what needs attention; the structured content
	// has every threshold with its countdown.
	var crossed crossings
	var next []string
	var nextIntro bool
	for _, th := range r.Thresholds {
		switch {
		case paused || th.Paused || th.RemainingSeconds == nil:
		case th.Crossed:
			// Crossed since the watchdog's last pulse: its notice (or one
			// of a higher level) is not among those below yet.
			ahead := r.PendingNoticesHeartbeatID != "" && !noticed(r.PendingNotices, th.Check, th.Level)
			crossed.add(l, th, ahead)
		case th.Check == "inactivity" && len(next) == 0 && th.Deadline != "":
			if d, err := time.Parse(time.RFC3339, th.Deadline); err == nil && *th.RemainingSeconds == 0 {
				next = append(next, fmt.Sprintf(tr(l, "inactivity %s at %s, shortly"), levelWord(l, th.Level), clockOf(d)))
			} else if err == nil {
				next = append(next, fmt.Sprintf(tr(l, "inactivity %s at %s (in %s)"), levelWord(l, th.Level), clockOf(d), humanSec(l, th.RemainingSeconds, "")))
			}
		case th.Check == "introspection" && !nextIntro:
			nextIntro = true
			if *th.RemainingSeconds == 0 { // "in 0s" read as a count that stopped
				next = append(next, fmt.Sprintf(tr(l, "introspection %s shortly"), levelWord(l, th.Level)))
			} else {
				next = append(next, fmt.Sprintf(tr(l, "introspection %s in %s of working time"), levelWord(l, th.Level), humanSec(l, th.RemainingSeconds, "")))
			}
		}
	}
	switch {
	case r.Work == workUnknown, paused:
	case len(crossed.checks) == 0:
		b.WriteString(tr(l, "No watchdog threshold is crossed.\n"))
	default:
		b.WriteString(crossed.text(l))
	}
	if len(next) > 0 {
		b.WriteString(tr(l, "Next: ") + strings.Join(next, tr(l, ", ")) + tr(l, ".\n"))
	}
	if r.StageNote != "" {
		b.WriteString(r.StageNote + "\n")
	}
	if r.Quiet != nil {
		b.WriteString(quietText(l, r.Quiet, r.recoveryCheck) + "\n")
	}
	if r.Hooks != nil {
		b.WriteString(hooksText(l, r.Hooks) + "\n")
	}
	writeNotices(&b, l, r.PendingNotices, r.NoticesAgeSeconds)
	return strings.TrimRight(b.String(), "\n")
}

// GetHeartbeatElapsedTime reports, without writing anything, where the
// agent stands against the watchdog: current ID, time since the latest log,
// checkpoint and introspection, deep work, and the time left until each
// threshold, plus the watchdog's pending notices.
func (t *Tools) GetHeartbeatElapsedTime(noInput) (*ElapsedResult, error) {
	id, err := t.currentID()
	if err != nil {
		return nil, err
	}
	now := t.now()
	latest, err := t.WS.LoadLatest()
	if err != nil {
		return nil, err
	}
	res := &ElapsedResult{HeartbeatID: string(id), Thresholds: []ThresholdStatus{}, PendingNotices: []string{}}
	if idt, err := t.WS.IDTime(id); err == nil {
		s := int64(now.Sub(idt).Round(time.Second) / time.Second)
		res.HeartbeatAgeSeconds = &s
	}
	if latest.Log != nil {
		res.LastLog = latest.Log.Path
		res.SinceLastLogSeconds = since(now, latest.Log)
	}
	if latest.Checkpoint != nil {
		res.LastCheckpointMessage = latest.Checkpoint.Message
		res.SinceLastCheckpointSeconds = since(now, latest.Checkpoint)
	}
	res.SinceLastIntrospectionSecs = since(now, latest.Introspection)

	active, err := t.activeDeclarations()
	if err != nil {
		return nil, err
	}
	var strict, anyDeep bool
	for _, d := range active {
		if !inForce(d, now) {
			continue
		}
		anyDeep = true
		st := &DeepWorkStatus{File: d.Rel, Mode: string(d.Decl.Mode), Activity: d.Decl.Activity,
			ElapsedSeconds: int64(now.Sub(d.Decl.DeclaredAt).Round(time.Second) / time.Second)}
		if d.Decl.Mode == workspace.Strict {
			strict = true
			st.Deadline = d.Decl.Deadline.Format(time.RFC3339)
			left := int64(d.Decl.Deadline.Sub(now).Round(time.Second) / time.Second)
			st.RemainingSeconds = &left
		}
		res.DeepWork = st // the newest in force wins; the list is oldest first
	}

	sd := t.standing(now, latest)
	res.Work, res.NotJudged = sd.work(), sd.why
	if sd.counting() && !strict { // strict pauses inactivity: it counts again from the deadline
		res.StretchStart = sd.stretch.From.In(t.WS.Loc).Format(time.RFC3339)
	}
	th := t.limits()
	info, warning, limit := th.IntrospectionLevels()
	res.Thresholds = append(res.Thresholds,
		sd.inactivity("warning", th.InactivityWarning.D(), now, strict),
		sd.inactivity("error", th.InactivityError.D(), now, strict),
		sd.introspection("info", info, anyDeep),
		sd.introspection("warning", warning, anyDeep),
		sd.introspection("error", limit, anyDeep),
	)
	if cycle := sd.cycle(now, latest.Log); !sd.recovering() && !sd.noRun() {
		res.Stage, res.StageNote = t.stageNote(cycle, res.DeepWork != nil)
		if t.cycleTold(cycle, res.SinceLastCheckpointSeconds) {
			res.StageNote = "" // the checkpoint since the cycle got here carried it
		}
	}
	done := sd.answeredSincePulse(latest)
	for _, th := range res.Thresholds {
		if th.Check == checks.Inactivity && th.Crossed {
			done = slices.DeleteFunc(done, func(c string) bool { return c == checks.Inactivity })
		}
	}
	res.PendingNoticesHeartbeatID, res.PendingNotices, res.NoticesAgeSeconds = sd.notices(now, append(done, t.taken()...)...)
	res.Quiet, res.Hooks = sd.quiet(now), sd.hooks(t.WS.Loc)
	if res.Quiet != nil && res.Quiet.Why == state.BlockedPaused {
		// Paused, nothing is judged, and the structure says so as the text
		// does: no stretch, no countdown, no deadline (it read "working",
		// a warning 5 s ahead, beside the pause).
		res.Work, res.StretchStart, res.Stage, res.StageNote = workPaused, "", "", ""
		for i := range res.Thresholds {
			th := &res.Thresholds[i]
			th.RemainingSeconds, th.Deadline, th.Crossed, th.Paused = nil, "", false, true
		}
	}
	if res.Quiet != nil && res.Quiet.Why == state.BlockedGaveUp {
		res.recoveryCheck = sd.st.Recovery.Check
	}
	// The next wakeup is the schedule's or the idle chamber's, whichever
	// comes first ("nothing is due before it" was said of the schedule's
	// while the idle one came sooner).
	var next *time.Time
	for _, n := range []*time.Time{sd.st.Chambers.Schedule.NextWakeup, sd.st.Chambers.Idle.WakeAt} {
		if n != nil && n.After(now) && (next == nil || n.Before(*next)) {
			next = n
		}
	}
	if sd.live && next != nil {
		res.NextWakeup = next.In(t.WS.Loc).Format(time.RFC3339)
	}
	return res, nil
}

// The work values of ElapsedResult.Work.
const (
	workWorking = "working"
	workWaiting = "waiting"
	workAlways  = "always"
	workAsking  = "waiting_for_you"
	workUnknown = "unknown"
	workPaused  = "paused"
)

// work is the standing in one word, for the reply.
func (s standing) work() string {
	switch {
	case !s.judged:
		return workUnknown
	case s.stretch.Asking:
		return workAsking
	case s.stretch.Waiting:
		return workWaiting
	case s.st.Work.Mode == state.WorkWorking || s.st.Work.Mode == state.WorkWaiting:
		return workWorking
	}
	return workAlways
}

// inactivity is one inactivity threshold as the check counts it: from the
// stretch's start, only while working.
func (s standing) inactivity(level string, limit time.Duration, now time.Time, paused bool) ThresholdStatus {
	ts := ThresholdStatus{Check: "inactivity", Level: level, ThresholdSeconds: int64(limit / time.Second), Paused: paused}
	if !s.counting() || paused {
		return ts // strict deep work: nothing counts, nothing is crossed (as the text says)
	}
	at := s.stretch.From.Add(limit).In(now.Location())
	if s.stretch.Busy && s.stretch.Hooked && !s.stretch.Own.IsZero() {
		// Counted from the client's last call, which the next call moves:
		// the calls hold it off until the hooks' bound, as the check does.
		if bound := s.stretch.Own.Add(checks.HooksAlone * limit).In(now.Location()); bound.After(at) {
			at = bound
		}
	}
	ts.Deadline = at.Format(time.RFC3339)
	left := at.Sub(now)
	if left < 0 { // the check's "more than the threshold"
		ts.Crossed, left = true, 0
	}
	secs := int64(left.Round(time.Second) / time.Second)
	ts.RemainingSeconds = &secs
	return ts
}

// introspection is one introspection threshold as the check counts it:
// on working time when a schedule wakes the agent.
func (s standing) introspection(level string, limit time.Duration, paused bool) ThresholdStatus {
	ts := ThresholdStatus{Check: "introspection", Level: level, ThresholdSeconds: int64(limit / time.Second), Paused: paused}
	if !s.judged || !s.owedOK {
		return ts
	}
	left := limit - s.owed
	if left < 0 { // the check's "more than the threshold"
		ts.Crossed, left = true, 0
	}
	secs := int64(left.Round(time.Second) / time.Second)
	ts.RemainingSeconds = &secs
	return ts
}

// clockOf is a time as the replies show it: the clock time in t's zone.
func clockOf(t time.Time) string { return t.Format("15:04:05") }

// noticed reports whether notices carry check's notice at level or above (their
// tags, "[warning] inactivity: ", are the same in every language).
func noticed(notices []string, check, level string) bool {
	// A notice carries a check's highest level: an error raised long ago
	// has raised its warning too.
	rank := map[string]int{"info": 1, "warning": 2, "error": 3}
	for _, n := range notices {
		for l, r := range rank {
			if r >= rank[level] && strings.HasPrefix(n, "["+l+"] "+check+":") {
				return true
			}
		}
	}
	return false
}
