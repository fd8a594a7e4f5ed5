package daemon

import (
	"context"
	"fmt"
	"time"

	"github.com/ai-heart/ai-heart/internal/checks"
	"github.com/ai-heart/ai-heart/internal/delivery"
	"github.com/ai-heart/ai-heart/internal/humanize"
	"github.com/ai-heart/ai-heart/internal/lang"
	"github.com/ai-heart/ai-heart/internal/pane"
	"github.com/ai-heart/ai-heart/internal/recovery"
	"github.com/ai-heart/ai-heart/internal/state"
	"github.com/ai-heart/ai-heart/internal/termsafe"
	"github.com/ai-heart/ai-heart/internal/wakeup"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// recoveryLogged reports whether a recovery log was written since the
// current attempt began (logs newest first, as the scan keeps them): the
// notice has been answered, and repeating "write a recovery log" would ask
// for a second one. A state written before attempt_at existed counts from
// the start of recovery.
func recoveryLogged(r state.Recovery, logs []workspace.Proof) bool {
	since := r.AttemptAt
	if since == nil {
		since = r.StartedAt
	}
	if since == nil {
		return false
	}
	for _, l := range logs {
		if !l.ModTime.After(*since) {
			break
		}
		if l.Type == workspace.Recovery {
			return true
		}
	}
	return false
}

// recoveryAsked reports whether the notices carry a give-up's notice that
// asks for the recovery log itself (see noticesCarried): the inactivity
// error then points to it instead of asking for a second log.
func (a *agent) recoveryAsked(logs []workspace.Proof) bool {
	rec := a.gate.recovery()
	if rec.GaveUp {
		return true // the status's give-up line asks for the log until it comes
	}
	o := a.gate.owed().GiveUp
	if o == nil && rec.Active && rec.Told != nil && !recoveryLogged(rec, logs) {
		o = rec.Told
	}
	return o != nil && recoveryLogAfter(o, logs) == nil
}

// recoveryNotice is the recovery paragraph for the next heartbeat prompt,
// in language l. The reason is the check's message (an alert line) in
// English; in Japanese fact, what the check holding it says is wrong, with
// its numbers (or its fixed reason without one).
func recoveryNotice(r state.Recovery, maxAttempts int, l lang.Lang, fact string) string {
	return ja.F(l, recoveryFormat, r.Attempt, maxAttempts, recoveryReason(r, l, fact))
}

// busyRecoveryNotice is recoveryNotice for an agent whose client's tools
// are busy (its turn goes on, tool calls flowing): it is not stuck and is
// not told to stop, only to write down, at its next step, what it does.
func busyRecoveryNotice(r state.Recovery, maxAttempts int, l lang.Lang, fact string) string {
	return ja.F(l, busyRecoveryFormat, r.Attempt, maxAttempts, recoveryReason(r, l, fact))
}

// cutRecoveryNotice is recoveryNotice after the watchdog itself ended the
// agent's last run (cut: what ended it, in the agent's language): no
// stall, and the run that reads it is a new one, with nothing to stop.
func cutRecoveryNotice(cut string) func(state.Recovery, int, lang.Lang, string) string {
	return func(r state.Recovery, maxAttempts int, l lang.Lang, fact string) string {
		why := recoveryReason(r, l, fact)
		if fact != "" {
			why = fact // the alert line would say the cut a second time
		}
		return ja.F(l, cutRecoveryFormat, r.Attempt, maxAttempts, cut, why)
	}
}

const (
	cutRecoveryFormat = `RECOVERY (attempt %d of %d): %s That was the watchdog's limit, not a stall, but nothing has recorded the work since: %s
This is a new run. Do this now:
1. Re-read GEMINI.md and ai-docs/ (healthy activity, deep work, heartbeat notices).
2. Write an activity log with create_activity_log, activity_type "recovery", saying what the ended run had done (its files and checkpoints show it) and what you will do next.
3. If a notice below says an introspection is due, write it too (activity_type introspection).
The tools name every file with the current heartbeat ID themselves: never type, reuse or invent one.`
	recoveryFormat = `RECOVERY (attempt %d of %d): the watchdog detected a problem: %s
Reset before anything else. Do this now:
1. Stop what you were doing; do not repeat the last action.
2. Re-read GEMINI.md and ai-docs/ (healthy activity, deep work, heartbeat notices).
3. Write an activity log with create_activity_log, activity_type "recovery", saying what happened and what you will do next.
4. If a notice below says an introspection is due, write it too (activity_type introspection).
The tools name every file with the current heartbeat ID themselves: never type, reuse or invent one.`
	busyRecoveryFormat = `RECOVERY (attempt %d of %d): the watchdog detected a problem: %s
Your client's tools have kept busy, but nothing of your own says what you are doing. At the next step of your work, do this:
1. Call checkpoint with a short note of what you are doing and what is left.
2. Re-read GEMINI.md and ai-docs/ (healthy activity, deep work, heartbeat notices).
3. Write an activity log with create_activity_log, activity_type "recovery", saying what happened and what you will do next; if the work needs a long stretch, declare deep work with start_deep_work.
4. If a notice below says an introspection is due, write it too (activity_type introspection).
The tools name every file with the current heartbeat ID themselves: never type, reuse or invent one.`
)

// recoveryReason is why recovery started, in language l: the alert line in
// English; in Japanese the check's reason, since the alert line is for
// machines and would put English inside the notice.
func recoveryReason(r state.Recovery, l lang.Lang, fact string) string {
	switch {
	case l != lang.Japanese:
		return r.Reason
	case fact != "":
		return fact
	}
	if why, ok := jaRecoveryReasons[r.Check]; ok {
		return why
	}
	return "`" + r.Check + "` のチェックがエラーになっています"
}

// recoveryStep says what the machine decided for recovery (rec: recovery as
// the step left it). An attempt's takeover wakeup was asked for by the step
// itself: the run in flight is ended, then the agent interrupted and woken
// (fly). Waiting, ended, gave up and came back are alerts.
func (a *agent) recoveryStep(now time.Time, id workspace.ID, effs []wakeup.Effect, rec state.Recovery) {
	for _, e := range effs {
		a.recoveryAlert(now, id, e.Kind, rec)
	}
}

// recoveryAlert is the alert for one of recovery's decisions.
func (a *agent) recoveryAlert(now time.Time, id workspace.ID, k wakeup.Kind, rec state.Recovery) {
	switch k {
	case wakeup.Attempted:
		a.emit(now, id, checks.Warning, "recovery", fmt.Sprintf("recovery attempt %d of %d: %s", rec.Attempt, a.cfg.Recovery.MaxAttempts, rec.Reason), 0)
	case wakeup.Waits:
		if rec.Held != "" {
			if rec.Held == state.BlockedBudget {
				a.checkBudget(now) // the budget's own alert, once a day, as a refused wakeup gives it
			}
			a.emit(now, id, checks.Warning, "recovery", fmt.Sprintf("recovery waits: %s, but %s, so no attempt can reach the agent; it is not counted as one, and recovery attempts once a wakeup can go", rec.Reason, heldWhy(rec.Held)), 0)
			return
		}
		a.mu.Lock()
		what := a.activity.AskWhat
		a.mu.Unlock()
		if what == "" {
			what = "a question"
		}
		a.emit(now, id, checks.Warning, "recovery", fmt.Sprintf("recovery waits: %s, but the agent is asking a person (%s); nothing is typed into its pane until that is answered", rec.Reason, termsafe.Line(what)), 0)
	case wakeup.Recovered:
		a.emit(now, id, checks.OK, "recovery", "no check that starts recovery is at error any more; recovery finished", 0)
	case wakeup.GaveUp:
		ends := "the checks go back to ok or `watchdog resume`"
		if d := a.cfg.Recovery.ResumeAfter.D(); d > 0 {
			ends += fmt.Sprintf(", at the latest after %s (recovery.resume_after)", humanize.Duration(d))
		}
		a.emit(now, id, checks.Error, "gave_up", fmt.Sprintf("recovery failed %d times (%s); the watchdog stops waking the agent until %s; pulse and status go on", a.cfg.Recovery.MaxAttempts, rec.Reason, ends), 0)
	case wakeup.Back:
		a.emit(now, id, checks.OK, "gave_up", "waking resumes: "+returnWhy(rec.Owed, a.cfg.Recovery.ResumeAfter.D())+"; the next wakeup tells the agent what happened", 0)
	}
}

// heldWhy says in English why the gate refuses wakeups.
func heldWhy(why string) string {
	switch why {
	case state.BlockedService:
		return "the model's service holds wakeups"
	case state.BlockedBreaker:
		return "the circuit breaker is open"
	case state.BlockedBudget:
		return "today's budget is spent"
	case state.BlockedCap:
		return "today's daily cap of wakeups is reached"
	}
	return why
}

// returnWhy says in English how a give-up ended.
func returnWhy(g *recovery.GiveUp, after time.Duration) string {
	if g == nil {
		return "recovery ended"
	}
	switch g.How {
	case recovery.Resumed:
		return "the operator resumed it"
	case recovery.Timed:
		return fmt.Sprintf("%s passed (recovery.resume_after)", humanize.Duration(after))
	case recovery.Paused:
		return "the operator paused it (waking stays off until the pause ends)"
	}
	return "no check that starts recovery is at error any more"
}

// recoveryLogAfter is the time of the agent's recovery log for give-up g,
// or nil: then the agent owes one, and a notice that asked again would
// get a second. For a give-up the log ended (the checks came back to ok)
// it is that log; for one the operator's pause or resume or the waiting
// time ended, any recovery log written since the give-up began (one
// written during the pause answered it).
func recoveryLogAfter(g *recovery.GiveUp, logs []workspace.Proof) *time.Time {
	for _, l := range logs { // newest first
		if !l.ModTime.After(g.At) {
			break
		}
		if l.Type != workspace.Recovery || g.How == recovery.Fixed && l.ModTime.After(g.Ended) {
			continue
		}
		return &l.ModTime
	}
	return nil
}

// owedNotice tells the agent, on the first wakeup after a give-up ended,
// what happened and what it owes, in language l: nothing more when its
// recovery log is written (logged). A give-up the operator's pause ended
// is read in the status while the pause lasts (paused) and in the first
// wakeup after it: each says where the pause stands then.
func owedNotice(g *recovery.GiveUp, logged *time.Time, paused bool, loc *time.Location, l lang.Lang) string {
	clock := func(t time.Time) string { return t.In(loc).Format("15:04:05") }
	if logged != nil && g.How == recovery.Fixed {
		return ja.F(l, "Recovery tried %d times on %s, then the watchdog stopped waking you at %s; your recovery log (%s) brought the checks back to ok, and waking came back at %s. Act on the notices below, if any, then go on with your next activity.",
			g.Attempts, checkName(g.Check), clock(g.At), clock(*logged), clock(g.Ended))
	}
	how := ja.T(l, "the checks went back to ok")
	switch g.How {
	case recovery.Resumed:
		how = ja.T(l, "the operator resumed you")
	case recovery.Timed:
		how = ja.T(l, "the set waiting time passed")
	case recovery.Paused:
		format := "Recovery tried %d times on %s, then the watchdog stopped waking you at %s; the operator paused you at %s, which ended that stop, and the pause has ended since, so waking is back. Before anything else, write an activity log with create_activity_log, activity_type \"recovery\": what happened and what you will do next."
		switch {
		case paused && logged != nil:
			format = "Recovery tried %d times on %s, then the watchdog stopped waking you at %s; the operator paused you at %s, which ended that stop. No wakeup comes until the pause ends. Your recovery log, written at %s, answers it: no second one is needed."
		case logged != nil:
			format = "Recovery tried %d times on %s, then the watchdog stopped waking you at %s; the operator paused you at %s, which ended that stop, and the pause has ended since, so waking is back. Your recovery log, written at %s, answers it: no second one is needed. Act on the notices below, if any, then go on with your next activity."
		case paused:
			format = "Recovery tried %d times on %s, then the watchdog stopped waking you at %s; the operator paused you at %s, which ended that stop. No wakeup comes until the pause ends. Before anything else, write an activity log with create_activity_log, activity_type \"recovery\": what happened and what you will do next."
		}
		if logged != nil {
			return ja.F(l, format, g.Attempts, checkName(g.Check), clock(g.At), clock(g.Ended), clock(*logged))
		}
		return ja.F(l, format, g.Attempts, checkName(g.Check), clock(g.At), clock(g.Ended))
	}
	if logged != nil {
		return ja.F(l, "Recovery tried %d times on %s, then the watchdog stopped waking you at %s; waking came back at %s because %s. Your recovery log, written at %s, answers it: no second one is needed. Act on the notices below, if any, then go on with your next activity.",
			g.Attempts, checkName(g.Check), clock(g.At), clock(g.Ended), how, clock(*logged))
	}
	return ja.F(l, "Recovery tried %d times on %s, then the watchdog stopped waking you at %s; waking came back at %s because %s. Before anything else, write an activity log with create_activity_log, activity_type \"recovery\": what happened and what you will do next.",
		g.Attempts, checkName(g.Check), clock(g.At), clock(g.Ended), how)
}

// interruptFor stops what the agent is doing before a takeover's prompt,
// with its client's own keys, and for recovery saves its chat where the
// client needs asking. Nothing is typed while a person is being asked: the
// keys wait for the pane's look.
func (a *agent) interruptFor(ctx context.Context, source string, id workspace.ID) {
	in, ok := a.deliver.(delivery.Interrupter)
	if !ok || (source != srcRecovery && source != srcFeedback) {
		return
	}
	aw, looks := in.(delivery.Awaiter)
	if looks {
		// The keys wait for the look (no dialog, no person's text), as
		// long as the flight lasts.
		if err := aw.Await(ctx, pane.Keys); err != nil {
			return
		}
	}
	a.mu.Lock()
	asking, client := a.activity.Asking, a.clientName()
	a.mu.Unlock()
	if asking && !looks {
		a.log.Info().Str("source", source).Msg("interrupt skipped: the agent is asking a person")
		return
	}
	if source == srcRecovery && a.holdsEscape() {
		// Escape would cancel the tool call in progress of an agent whose
		// turn the error's word has not reached: the word goes first, and
		// the recovery prompt waits for the turn's end.
		a.log.Info().Str("source", source).Msg("interrupt skipped: the agent is busy in its client's tools and the inactivity error's notice has not reached its turn yet")
		return
	}
	name := ""
	if source == srcRecovery {
		name = fmt.Sprintf("HEARTBEAT_%s_%s", workspace.NewID(a.started.In(a.loc)), id)
	}
	ictx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	typed, err := delivery.InterruptClient(ictx, in, client, name)
	if err != nil {
		a.log.Warn().Err(err).Str("source", source).Str("client", client).Msg("interrupt")
		return
	}
	a.log.Debug().Str("source", source).Str("client", client).Str("typed", typed).Msg("interrupted")
}

// checkName is a check's name as the agent docs write it: `inactivity` in
// English, 無活動（`inactivity`） in Japanese.
type checkName = checks.Name
