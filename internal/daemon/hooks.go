package daemon

import (
	"context"
	"errors"
	"time"

	"github.com/ai-heart/ai-heart/internal/checks"
	"github.com/ai-heart/ai-heart/internal/cost"
	"github.com/ai-heart/ai-heart/internal/delivery"
	"github.com/ai-heart/ai-heart/internal/hook"
	"github.com/ai-heart/ai-heart/internal/state"
	"github.com/ai-heart/ai-heart/internal/wakeup"
)

// hookSkew is how far in the future a hook event may be dated and still be
// believed (clocks of one machine agree; the agent can forge a line, and one
// dated 2099 would keep it "busy" for ever).
const hookSkew = time.Minute

// readHooks folds in what the agent's client said through its hooks since
// the last pulse. Where hooks speak, the end of a turn answers a tmux or
// inbox wakeup (as a log after it does, hooks or not), but only a
// turn the client said began after the wakeup: a lone Stop line, which the
// agent can pipe to heart-hook itself, answers nothing.
func (a *agent) readHooks(b *beat) {
	evs, err := a.hooks.Read(b.now)
	a.spoolRead(b, err)
	type failure struct {
		kind  string
		woken time.Time
	}
	var failures []failure
	var turns []answeredTurn
	var limits []hook.Limit
	var moved []hook.Event // events that may end a question offered afar
	var switched []hook.Event
	answered := false
	defer func() {
		for _, e := range moved {
			a.withdrawAsks(e)
		}
		a.limitsResumed(b.now, b.id, b.resumedAt) // before the lines read now: those may arm anew
		if len(limits) > 0 {
			a.rateLimits(b.now, b.id, limits)
		}
		a.resumeDone(b.now, b.id)
		a.limitResumes(b.now, b.id)
		a.noteSpread(b.now, b.id)
		a.selfWakeups(b.now, b.id, switched)
		a.keepGate(b.now)
		for _, f := range failures {
			// Dated when the watchdog learnt it: a line dated ahead must
			// not lengthen the hold.
			a.serviceFailed(b.now, b.id, f.kind, f.woken)
		}
		if answered {
			a.serviceAnswers(b.now, b.id)
		}
		for _, t := range turns {
			a.bg.Go(func() { a.bookTurn(t) }) // reads the client's transcript: beside the pulse
		}
	}()
	exec := a.deliver.Traits().RunIsTheWork
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, e := range evs {
		if e.Time.After(b.now.Add(hookSkew)) {
			continue
		}
		if e.Kind == hook.RateLimit {
			limits = append(limits, e.Limits...) // the newest of each window wins
			if e.Version != "" {
				a.clientVersion = e.Version
			}
			continue
		}
		a.heardResume(e)
		inTurn, begun := a.activity.InTurn, a.activity.TurnStart
		a.activity.Apply(e)
		if a.desk != nil && e.Kind != hook.Ask {
			moved = append(moved, e)
		}
		if e.Session != "" {
			a.session = e.Session
		}
		a.heardTold(e)
		if a.parkedBy(e, exec) {
			switched = append(switched, e)
		}
		if e.Kind == hook.Failure && e.Time.After(a.started) {
			failures = append(failures, failure{e.Detail, a.awaited()}) // acted on once, not again after a restart
			if !exec {
				a.gate.step(b.now, wakeup.Release{}) // the turn is over, unanswered: the hold decides what comes next
			}
		}
		// A tool call is work: it ends idleness as a proof file does (a
		// ghost's turn, with no tool call, does not).
		if e.Kind == hook.Tool {
			a.woke(a.gate.step(b.now, wakeup.Proof{At: e.Time}))
		}
		if e.Kind == hook.TurnEnd && !exec && inTurn {
			for _, x := range a.gate.step(b.now, wakeup.Turn{Begun: begun, End: e.Time}) {
				switch x.Kind {
				case wakeup.Answered:
					turns = append(turns, answeredTurn{source: x.Source, from: x.At, end: e})
					answered = true
				case wakeup.Worked:
					answered = true
				}
			}
		}
	}
}

// spoolRead tells the operator, once per change, what kept the hooks'
// spool from being read (the agent can put anything there): a flood is
// skipped, the newest events still read; a spool that cannot be read at
// all (a FIFO or a folder at the day's file, the folder linked out, no
// permission) leaves the hooks unheard, which status shows until it reads
// again, and then says so.
func (a *agent) spoolRead(b *beat, err error) {
	why := ""
	if err != nil {
		why = err.Error()
	}
	blind := err != nil && !errors.Is(err, hook.ErrFlood)
	if err != nil && why != a.hookErr {
		b.log.Warn().Err(err).Msg("read the hooks' spool")
		msg := "the hooks' spool: " + why
		if blind {
			msg = "the hooks' spool cannot be read, so the client's hooks are not heard (turns, tool calls, questions): " + why
		}
		a.emit(b.now, b.id, checks.Warning, "hooks", msg, 0)
	}
	a.hookErr = why
	unread := ""
	if blind {
		unread = why
	}
	a.mu.Lock()
	was := a.pulse.HooksUnread
	a.pulse.HooksUnread = unread
	a.mu.Unlock()
	if was != "" && unread == "" {
		a.emit(b.now, b.id, checks.OK, "hooks", "the hooks' spool reads again", 0)
	}
}

// woke carries out a proof's effect: an agent no longer idle has every
// inbox item named again in its next idle spell. Called with a.mu held.
func (a *agent) woke(effs []wakeup.Effect) {
	for _, e := range effs {
		if e.Kind == wakeup.Woke {
			a.announced = map[string]bool{}
		}
	}
}

// awaited is when the wakeup awaiting the agent's answer was delivered: the
// flight in progress, else the work clock's unanswered wakeup (inbox);
// zero when none. Called with a.mu held.
func (a *agent) awaited() time.Time {
	if _, since, ok := a.gate.inFlight(); ok {
		return since
	}
	if working, since := a.gate.work().Working(); working {
		return since
	}
	return time.Time{}
}

// clientWork is the work clock's view adjusted by the hooks: a turn begun
// by a prompt after the last answered wakeup is work, whoever sent the
// prompt (a wakeup, or the user typing). The rest of a turn whose wakeup a
// log has answered is not new work, nor is a tool call outside any wakeup
// (its turn's start was never heard): neither opens a working stretch.
// Called with a.mu held.
func (a *agent) clientWork(w checks.Work, answered time.Time) checks.Work {
	if c := a.activity; w.Scheduled && !w.Working && c.InTurn && c.Prompted && c.TurnStart.After(answered) {
		w.Working, w.Since, w.Hooked = true, c.TurnStart, true
	}
	return w
}

// refusalsNow is what the client refused last: the last exec run's, or the
// hooks' (Claude Code's PermissionDenied) when they refused a call since.
// The hooks do not say whether a turn's every call was refused (the turn
// may go on), so they warn and never make it an error. Called with a.mu
// held.
func (a *agent) refusalsNow() checks.Refusals {
	h := a.activity.Refusals
	if h.Refused == 0 || h.At.Before(a.refusals.At) {
		return a.refusals
	}
	return checks.Refusals{Seen: true, At: h.At, Tools: h.Tools, Refused: h.Refused}
}

// clientState is how the state file shows the hooks' view; nil where no
// hook has spoken. Called with a.mu held.
func (a *agent) clientState(now time.Time) *state.Client {
	c := a.activity
	if !c.Wired {
		return nil
	}
	s := &state.Client{Mode: state.ClientWaiting, LastEvent: c.Last, LastTool: c.LastTool, ToolCalls: c.Busy(now), Failure: c.Failure, Running: c.Running != ""}
	if !c.LastToolAt.IsZero() {
		t := c.LastToolAt
		s.LastToolAt = &t
	}
	if c.Repeats > 1 {
		s.Repeats, s.LoopTools = c.Repeats, c.LoopTools
	}
	if !c.Answered.IsZero() {
		t := c.Answered
		s.Answered = &t
	}
	switch {
	case c.Asking:
		t := c.AskSince
		s.Mode, s.Since, s.Asking = state.ClientWaitingForYou, &t, c.AskWhat
	case c.InTurn:
		t := c.TurnStart
		s.Mode, s.Since = state.ClientInTurn, &t
	}
	return s
}

// answeredTurn is a tmux or inbox wakeup answered by the end of a turn.
type answeredTurn struct {
	source string
	from   time.Time  // the wakeup's delivery
	end    hook.Event // the turn's end
}

// bookTurn counts an answered wakeup's fate (a ghost when the agent said
// only the idle token) and what the turn used, from the client's session
// transcript where it keeps one with usage (Claude Code); else the usage is
// unknown, never 0.
func (a *agent) bookTurn(t answeredTurn) {
	u, err := delivery.TurnUsage(t.end.Client, t.end.Transcript, t.from, t.end.Time)
	if err != nil {
		a.log.Warn().Err(err).Str("transcript", t.end.Transcript).Msg("turn usage")
	}
	a.transcriptHeard(t, u != nil)
	outcome := cost.Worked
	if t.end.Ghost {
		outcome = cost.Ghost
		a.outcome(t.source, state.OutcomeGhost)
	}
	u, from := a.withTelemetry(teleBind{session: t.end.Session, from: t.from}, t.end.Time, u, cost.FromTranscript)
	a.spend(t.source, outcome, u, from)
	a.noteWorkAfter(context.Background(), t.source, t.end.Time, t.end.Ghost)
}
