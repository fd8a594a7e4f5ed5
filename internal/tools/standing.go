package tools

import (
	"errors"
	"os"
	"time"

	"github.com/ai-heart/ai-heart/internal/checks"
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
	st, err := state.Read(t.WS)
	if err != nil {
		if !errors.Is(err, os.ErrNotExist) {
			t.Log.Warn().Err(err).Msg("read watchdog state")
		}
		return standing{why: notRunning}
	}
	if ok, _ := st.Live(t.WS, now); !ok {
		return standing{why: notRunning}
	}
	s := standing{judged: true, st: st}
	w := checks.Work{Scheduled: st.Work.Mode == state.WorkWorking || st.Work.Mode == state.WorkWaiting,
		Working: st.Work.Mode == state.WorkWorking, Worked: st.Work.WorkedSinceIntrospection.D()}
	if st.Work.Since != nil {
		w.Since = *st.Work.Since
	}
	// What happened since the pulse, as the next pulse will see it: a log
	// after the wakeup answers it where no hooks and no exec run do.
	if w.Working && st.Client == nil && st.Delivery != "exec" && latest.Log != nil && latest.Log.ModTime.After(w.Since) {
		w.Working = false
	}
	sincePulse := max(now.Sub(st.PulseAt), 0)
	if in := latest.Introspection; in != nil && (st.LastIntro == nil || in.ModTime.After(st.LastIntro.ModTime)) {
		w.Worked, sincePulse = 0, max(now.Sub(in.ModTime), 0)
	}
	if w.Working {
		w.Worked += sincePulse
	}
	var c hook.Activity
	if cl := st.Client; cl != nil {
		c.Wired, c.LastTool, c.Asking = true, cl.LastTool, cl.Mode == state.ClientWaitingForYou
		if cl.LastToolAt != nil {
			c.LastToolAt = *cl.LastToolAt
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
	s.stretch = checks.InactivityStretch(latest.NewestProof(), strictEnded, c, w, baseline, clock)
	s.owed, s.owedWorking, s.owedOK = checks.IntrospectionOwed(now, latest.Introspection, w, baseline)
	if !s.stretch.Waiting && !s.stretch.Asking && s.stretch.From.IsZero() {
		s.judged, s.why = false, noProofYet
	}
	return s
}

// cycle is how long this cycle has run as the watchdog sees it: from the
// latest log, or from the unanswered wakeup when that came later (the time
// spent waiting before it is not the cycle's). nil while waiting or when
// nothing can be judged.
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
	if from.IsZero() {
		return nil
	}
	v := int64(max(now.Sub(from), 0).Round(time.Second) / time.Second)
	return &v
}

// counting reports whether inactivity is being counted now.
func (s standing) counting() bool {
	return s.judged && !s.stretch.Waiting && !s.stretch.Asking
}
