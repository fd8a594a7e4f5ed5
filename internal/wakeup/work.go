package wakeup

import (
	"time"

	"github.com/ai-heart/ai-heart/internal/checks"
	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/state"
)

// Work follows working versus waiting: the agent is working from a
// delivered wakeup until it answers it, then waiting. Only a successful exec
// run answers (a failed, timed-out, capped or ended one does not); for tmux
// and inbox a log after the wakeup does, and so does the turn's end where
// the client's hooks speak.
// While working, inactivity counts from the first unanswered wakeup
// (since), which a later wakeup does not move. It also adds up the working
// time since the last introspection, on which introspection is owed. Only
// Step changes it.
type Work struct {
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
	// answeredAt is when the last wakeup was answered: a turn the client
	// began before it is the answered wakeup's, not new work.
	answeredAt time.Time
}

// delivered starts working at a delivered wakeup; a wakeup while one is
// unanswered keeps the first one's time, or inactivity would never grow.
// Working time is counted from the delivery itself, not from the next
// pulse: a run that starts and ends between two pulses is work too.
func (w *Work) delivered(at time.Time) {
	if !w.working {
		w.working, w.since = true, at
		if at.After(w.countedTo) {
			w.countedTo = at
		}
	}
}

// answered ends working at at. The working time up to at is counted now.
func (w *Work) answered(at time.Time) {
	if w.working && at.After(w.countedTo) {
		w.worked += at.Sub(w.countedTo)
		w.countedTo = at
	}
	if w.working {
		w.answeredAt = at
	}
	w.working, w.ended = false, checks.RunEnd{}
}

// cut notes that the working stretch's latest run ended at at with no
// answer, ended early by why (zero when it failed by itself).
func (w *Work) cut(at time.Time, why checks.RunEnd) {
	if w.working {
		w.ended, w.endedAt = why, at
	}
}

// answerTurn ends working at end, the end of a turn the client said began
// at begun, if that turn began after the wakeup: a turn's end alone, or the
// end of a turn already under way when the wakeup came, is no answer.
func (w *Work) answerTurn(begun, end time.Time) bool {
	if !w.working || !begun.After(w.since) || end.Before(begun) {
		return false
	}
	w.answered(end)
	return true
}

// observe folds in a pulse: a log after the wakeup answers it where
// logAnswers (tmux and inbox), a new introspection restarts
// the working-time count, and working time since the last pulse is added;
// paused, none is (a pause keeps introspection quiet, during it and after),
// nor during deep work, which pauses introspection: its minutes are working
// time for inactivity, but introspection owes nothing for them, so a strict
// deadline is not also an introspection error the moment it passes; nor
// while a person is being asked: those minutes are theirs.
func (w *Work) observe(p Pulse, logAnswers bool) {
	now := p.Now
	if (p.Paused || p.DeepWork || p.Asking) && now.After(w.countedTo) {
		w.countedTo = now
	}
	if w.working && logAnswers && p.LastLog.After(w.since) {
		w.answered(p.LastLog)
	}
	if p.LastIntrospection.After(w.intro) {
		w.intro, w.worked, w.countedTo = p.LastIntrospection, 0, now
	}
	if (!w.scheduled || w.working) && now.After(w.countedTo) {
		w.worked += now.Sub(w.countedTo)
	}
	if now.After(w.countedTo) {
		w.countedTo = now
	}
}

// Answered is when the last wakeup was answered (zero: none yet).
func (w Work) Answered() time.Time { return w.answeredAt }

// Working reports whether a delivered wakeup is unanswered, and since when.
func (w Work) Working() (bool, time.Time) { return w.working, w.since }

// Checks is what the pure checks need to know.
func (w Work) Checks() checks.Work {
	return checks.Work{Scheduled: w.scheduled, Working: w.working, Since: w.since, Worked: w.worked, Ended: w.ended, EndedAt: w.endedAt}
}

// State is how the state file shows it.
func (w Work) State() state.Work {
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
