package daemon

import (
	"errors"
	"fmt"
	"time"

	"github.com/ai-heart/ai-heart/internal/checks"
	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/delivery"
	"github.com/ai-heart/ai-heart/internal/humanize"
	"github.com/ai-heart/ai-heart/internal/scan"
	"github.com/ai-heart/ai-heart/internal/state"
)

// workClock follows working versus waiting: the agent is working from a
// delivered wakeup until it answers it, then waiting. Only a successful exec
// run answers (a failed, timed-out, capped or ended one does not); for tmux
// and inbox a log after the wakeup does. While working, inactivity counts
// from the first unanswered wakeup (since), which a later wakeup does not
// move. It also adds up the working time since the last introspection, on
// which introspection is owed. Guarded by agent.mu.
type workClock struct {
	scheduled bool      // a schedule or the idle chamber wakes the agent
	working   bool      // a delivered wakeup is unanswered
	since     time.Time // when that wakeup was delivered
	worked    time.Duration
	countedTo time.Time // worked covers the working time up to here
	intro     time.Time // mtime of the introspection worked counts from
	// ended says what ended the stretch's last run early (the tool cap,
	// its timeout...), and when: the stretch is that run's, not a stall's.
	ended   checks.RunEnd
	endedAt time.Time
}

func newWorkClock(cfg config.AgentConfig, started time.Time) workClock {
	return workClock{scheduled: cfg.Scheduled(), countedTo: started}
}

// delivered starts working at a delivered wakeup; a wakeup while one is
// unanswered keeps the first one's time, or inactivity would never grow.
// Working time is counted from the delivery itself, not from the next
// pulse: a run that starts and ends between two pulses is work too.
func (w *workClock) delivered(at time.Time) {
	if !w.working {
		w.working, w.since = true, at
		if at.After(w.countedTo) {
			w.countedTo = at
		}
	}
}

// answered ends working at at: an exec run ended successfully, or a log
// came after the wakeup. The working time up to at is counted now.
func (w *workClock) answered(at time.Time) {
	if w.working && at.After(w.countedTo) {
		w.worked += at.Sub(w.countedTo)
		w.countedTo = at
	}
	w.working, w.ended = false, checks.RunEnd{}
}

// cut notes that the working stretch's latest run ended at at with no
// answer, ended early by why ("" when it failed by itself).
func (w *workClock) cut(at time.Time, why checks.RunEnd) {
	if w.working {
		w.ended, w.endedAt = why, at
	}
}

// answerTurn ends working at end, the end of a turn the client said began
// at begun, if that turn began after the wakeup: a turn's end alone, or the
// end of a turn already under way when the wakeup came, is no answer. It
// reports whether it answered.
func (w *workClock) answerTurn(begun, end time.Time) bool {
	if !w.working || !begun.After(w.since) || end.Before(begun) {
		return false
	}
	w.answered(end)
	return true
}

// observe folds in a pulse: a log after the wakeup answers it (tmux and
// inbox without hooks: with hooks the turn's end does; exec runs answer
// when they end), a new introspection restarts the working-time count, and
// working time since the last pulse is added.
func (w *workClock) observe(now time.Time, snap scan.Snapshot, runIsTheWork, hooked bool) {
	if w.working && !runIsTheWork && !hooked && snap.LastLog != nil && snap.LastLog.ModTime.After(w.since) {
		w.answered(snap.LastLog.ModTime)
	}
	if in := snap.LastIntrospection; in != nil && in.ModTime.After(w.intro) {
		w.intro, w.worked, w.countedTo = in.ModTime, 0, now
	}
	if (!w.scheduled || w.working) && now.After(w.countedTo) {
		w.worked += now.Sub(w.countedTo)
	}
	if now.After(w.countedTo) {
		w.countedTo = now
	}
}

// hold counts no working time up to now: the agent is paused, and a pause
// keeps introspection quiet, during it and after (a strict declaration
// that ends while paused leaves nothing owed for the paused time).
func (w *workClock) hold(now time.Time) {
	if now.After(w.countedTo) {
		w.countedTo = now
	}
}

// checks is what the pure checks need to know.
func (w *workClock) checks() checks.Work {
	return checks.Work{Scheduled: w.scheduled, Working: w.working, Since: w.since, Worked: w.worked, Ended: w.ended, EndedAt: w.endedAt}
}

// state is how the state file shows it.
func (w *workClock) state() state.Work {
	s := state.Work{Mode: state.WorkAlways, WorkedSinceIntrospection: config.Duration(w.worked)}
	switch {
	case !w.scheduled:
	case w.working:
		t := w.since
		s.Mode, s.Since = state.WorkWorking, &t
	default:
		s.Mode = state.WorkWaiting
	}
	return s
}

// endedBy says what ended an exec run that gave no answer: a cap, its
// timeout, a signal; the zero RunEnd for a run that failed by itself.
func (a *agent) endedBy(err error, res delivery.Result) checks.RunEnd {
	switch {
	case errors.Is(err, delivery.ErrToolCap):
		return checks.RunEnd{Kind: checks.EndToolCap, Detail: fmt.Sprint(a.cfg.Agent.MaxToolCalls)}
	case errors.Is(err, delivery.ErrTokenCap):
		return checks.RunEnd{Kind: checks.EndTokenCap, Detail: fmt.Sprint(a.cfg.Budget.PerWakeupTokens)}
	case errors.Is(err, delivery.ErrTimeout):
		return checks.RunEnd{Kind: checks.EndTimeout, Detail: humanize.Duration(a.cfg.Agent.Timeout.D())}
	case res.Signal != "":
		return checks.RunEnd{Kind: checks.EndSignal, Detail: res.Signal}
	}
	return checks.RunEnd{}
}
