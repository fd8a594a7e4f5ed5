package tools

import (
	"errors"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/ai-heart/ai-heart/internal/checks"
	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/hook"
	"github.com/ai-heart/ai-heart/internal/state"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// standing is where the agent stands as the watchdog's checks judge it:
// the live watchdog's state file (working or waiting, since when, working
// time owed, the hooks' view) with the proofs written since its last pulse,
// measured by the checks' own functions. Where no watchdog runs, nothing is
// judged and the replies say so instead of guessing from the last log.
type standing struct {
	// live: a running watchdog wrote st; judged: the thresholds can be
	// measured too (there is something to count from).
	live   bool
	judged bool
	// why says, when not judged, what is missing.
	why     string
	stretch checks.Stretch
	// owed is the time introspection is owed on; owedWorking says it is
	// working time.
	owed        time.Duration
	owedWorking bool
	owedOK      bool
	st          state.State
}

// Reasons a reply cannot judge the thresholds.
const (
	notRunning = "no watchdog is running on this workspace"
	noProofYet = "there is no proof of activity to count from yet"
)

// standing reads the watchdog's judgement at now, given the newest proofs.
func (t *Tools) standing(now time.Time, latest workspace.Latest) standing {
	st, err := state.ReadPublished(t.WS)
	if err != nil {
		if !errors.Is(err, os.ErrNotExist) {
			t.Log.Warn().Err(err).Msg("read watchdog state")
		}
		return standing{why: notRunning}
	}
	if ok, _ := st.Fresh(now); !ok {
		return standing{why: notRunning}
	}
	if t.FollowWatchdog && st.Thresholds.Validate() == nil {
		th := st.Thresholds
		t.live.Store(&th)
	}
	s := standing{live: true, judged: true, st: st}
	w := checks.Work{Scheduled: st.Work.Mode == state.WorkWorking || st.Work.Mode == state.WorkWaiting,
		Working: st.Work.Mode == state.WorkWorking, Worked: st.Work.WorkedSinceIntrospection.D()}
	if st.Work.Since != nil {
		w.Since = *st.Work.Since
	}
	// What happened since the pulse, as the next pulse will see it: a log
	// after the wakeup answers it under tmux and inbox, hooks or not (an
	// exec run answers by ending).
	if w.Working && st.Delivery != config.DeliveryExec && latest.Log != nil && latest.Log.ModTime.After(w.Since) {
		w.Working = false
	}
	// Working time the pulse has not counted: from the pulse, or from a
	// newer introspection, or from a wakeup delivered after the pulse
	// (the watchdog notes it in the file at once, keeping the pulse's time).
	from := st.PulseAt
	if in := latest.Introspection; in != nil && (st.LastIntro == nil || in.ModTime.After(st.LastIntro.ModTime)) {
		w.Worked, from = 0, in.ModTime
	}
	// A person being asked holds introspection's working time, as the
	// watchdog's clock does.
	if w.Working && (st.Client == nil || st.Client.Mode != state.ClientWaitingForYou) {
		if w.Since.After(from) {
			from = w.Since
		}
		w.Worked += max(now.Sub(from), 0)
	}
	var c hook.Activity
	if cl := st.Client; cl != nil {
		c.Wired, c.LastTool, c.Asking = true, cl.LastTool, cl.Mode == state.ClientWaitingForYou
		if cl.LastToolAt != nil {
			c.LastToolAt = *cl.LastToolAt
		}
		if cl.Answered != nil {
			c.Answered = *cl.Answered
		}
	}
	var baseline, strictEnded time.Time
	if b := st.Work.Baseline; b != nil {
		baseline = b.Truncate(time.Second)
	}
	if e := st.Work.StrictEnded; e != nil {
		strictEnded = *e
	}
	clock := func(x time.Time) string { return x.In(t.WS.Loc).Format("15:04:05") }
	s.stretch = checks.InactivityStretch(now, t.limits().InactivityWarning.D(), latest.NewestProof(), strictEnded, c, w, baseline, clock)
	s.owed, s.owedWorking, s.owedOK = checks.IntrospectionOwed(now, latest.Introspection, w, baseline)
	if !s.stretch.Waiting && !s.stretch.Asking && s.stretch.From.IsZero() {
		s.judged, s.why = false, noProofYet
	}
	return s
}

// cycle is how long this cycle has run as the watchdog sees it: from the
// latest log, or from the unanswered wakeup when that came later (the time
// spent waiting before it is not the cycle's). Under exec each run is a new
// cycle: it starts at the wakeup of the run in flight, though inactivity
// still counts from the first unanswered one (a run after one the tool cap
// ended was told its cycle had run 8s when it was 0 s old). nil while
// waiting or when nothing can be judged.
func (s standing) cycle(now time.Time, lastLog *workspace.Proof) *int64 {
	if !s.counting() {
		return nil
	}
	var from time.Time
	if lastLog != nil {
		from = lastLog.ModTime
	}
	if w := s.st.Work; w.Mode == state.WorkWorking && w.Since != nil && w.Since.After(from) {
		from = *w.Since
	}
	if b := s.st.Work.Baseline; b != nil && b.After(from) {
		from = *b
	}
	if sc := s.st.Chambers.Schedule; s.st.Delivery == config.DeliveryExec && sc.InFlight && sc.InFlightSince != nil && sc.InFlightSince.After(from) {
		from = *sc.InFlightSince
	}
	if from.IsZero() {
		return nil
	}
	v := int64(max(now.Sub(from), 0).Round(time.Second) / time.Second)
	return &v
}

// noRun reports whether no run of the agent is going: under exec each
// wakeup is a run, and none is in flight (a run the tool cap ended, read
// from outside it). No cycle goes on to close, so "this cycle has run"
// has nothing to advise.
func (s standing) noRun() bool {
	return s.live && s.st.Delivery == config.DeliveryExec && !s.st.Chambers.Schedule.InFlight
}

// gap is how long inactivity has been counted at now, as the check counts
// it: from the newest proof, tool call, unanswered wakeup or strict
// deadline. nil while waiting or when nothing can be judged.
func (s standing) gap(now time.Time) *int64 {
	if !s.counting() || s.stretch.From.IsZero() {
		return nil
	}
	v := int64(max(now.Sub(s.stretch.From), 0).Round(time.Second) / time.Second)
	return &v
}

// recovering reports whether the watchdog's recovery notice stands, or
// recovery has given up: its steps come first, so no reply adds advice on
// the cycle's length.
func (s standing) recovering() bool {
	if !s.live {
		return false
	}
	// Given up, recovery's notice is gone, but the log it asked for is
	// still what comes first.
	if s.st.Recovery.GaveUp {
		return true
	}
	for _, n := range s.st.Notices {
		if noticeCheck(n) == recoveryCheck {
			return true
		}
	}
	return false
}

// counting reports whether inactivity is being counted now.
func (s standing) counting() bool {
	return s.judged && !s.stretch.Waiting && !s.stretch.Asking
}

// notices are the live watchdog's notices as of its last pulse, less those
// of the checks in done: what the call itself has just answered (a log
// answers inactivity, an introspection log introspection, a recovery log
// the recovery notice), so a reply never asks for what it reports done.
// age is how old the pulse is.
func (s standing) notices(now time.Time, done ...string) (id string, out []string, age *int64) {
	out = []string{}
	if !s.live || len(s.st.Notices) == 0 {
		return "", out, nil
	}
	if s.recoveryEnds(done) {
		done = append(done, recoveryCheck)
	}
	for _, n := range s.st.Notices {
		if !slices.Contains(done, noticeCheck(n)) {
			out = append(out, n)
		}
	}
	if len(out) == 0 {
		return "", out, nil
	}
	a := int64(max(now.Sub(s.st.PulseAt), 0).Round(time.Second) / time.Second)
	return string(s.st.HeartbeatID), out, &a
}

// recoveryEnds reports whether answering the checks in done ends recovery,
// as the watchdog's next pulse will see it: recovery is held only while a
// recoverable check is at error, so when the one holding it is answered
// and no other stands at error, its notice asks for nothing any more.
func (s standing) recoveryEnds(done []string) bool {
	r := s.st.Recovery
	if !r.Active || r.GaveUp || !slices.Contains(done, r.Check) {
		return false
	}
	for _, n := range s.st.Notices {
		c := noticeCheck(n)
		if c != r.Check && checks.Recoverable(c) && strings.HasPrefix(n, "[error] ") && !slices.Contains(done, c) {
			return false
		}
	}
	return true
}

// noticeCheck is the check a notice paragraph is tagged with
// ("[warning] inactivity: ..."), "" for an untagged one.
func noticeCheck(n string) string {
	_, rest, ok := strings.Cut(n, "] ")
	if !ok || !strings.HasPrefix(n, "[") {
		return ""
	}
	check, _, ok := strings.Cut(rest, ":")
	if !ok || strings.ContainsAny(check, " \n") {
		return ""
	}
	return check
}

// answered lists the checks a proof written now answers: any log or
// checkpoint answers inactivity and breaks a tool loop; any log the strict expiry's first step
// (record what you did: the log's reply says the rest of the order, so it
// is said once); an introspection log introspection (and the introspection
// owed after deep work); a recovery log the recovery.
func answered(typ workspace.ActivityType, log bool) []string {
	// The call itself is another call than the one repeated: it breaks a
	// tool loop, so its reply does not repeat that notice.
	done := []string{checks.Inactivity, checks.ToolLoop}
	if log {
		done = append(done, checks.DeepWorkExpired)
	}
	switch {
	case !log:
	case typ == workspace.Introspection:
		done = append(done, checks.Introspection, checks.AfterDeepWork)
	case typ == workspace.Recovery:
		done = append(done, recoveryCheck)
	}
	return done
}

// recoveryCheck is the tag of the watchdog's recovery notice.
const recoveryCheck = "recovery"

// answeredSincePulse lists the checks that proofs written after the
// watchdog's last pulse have answered, so no reply repeats a notice an
// earlier log or checkpoint has answered since.
func (s standing) answeredSincePulse(latest workspace.Latest) []string {
	var done []string
	if p := latest.NewestProof(); p != nil && p.ModTime.After(s.st.PulseAt) {
		done = append(done, checks.Inactivity)
	}
	if l := latest.Log; l != nil && l.ModTime.After(s.st.PulseAt) {
		done = append(done, checks.DeepWorkExpired)
	}
	if in := latest.Introspection; in != nil && in.ModTime.After(s.st.PulseAt) {
		done = append(done, checks.Introspection, checks.AfterDeepWork)
	}
	if r := latest.Recovery; r != nil && r.ModTime.After(s.st.PulseAt) {
		done = append(done, recoveryCheck)
	}
	return done
}

// taken lists the checks whose cause is gone from the workspace since the
// pulse: feedback that has all been taken (check_and_process_item renamed
// it) is not announced again in the next reply.
func (t *Tools) taken() []string {
	items, err := t.inboxItems(workspace.FeedbackboxDir)
	if err == nil && len(items) == 0 {
		return []string{checks.Feedback}
	}
	return nil
}
