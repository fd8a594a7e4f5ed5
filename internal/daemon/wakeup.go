package daemon

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/ai-heart/ai-heart/internal/budget"
	"github.com/ai-heart/ai-heart/internal/checks"
	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/cost"
	"github.com/ai-heart/ai-heart/internal/delivery"
	"github.com/ai-heart/ai-heart/internal/humanize"
	"github.com/ai-heart/ai-heart/internal/lang"
	"github.com/ai-heart/ai-heart/internal/pane"
	"github.com/ai-heart/ai-heart/internal/prompt"
	"github.com/ai-heart/ai-heart/internal/schedule"
	"github.com/ai-heart/ai-heart/internal/state"
	"github.com/ai-heart/ai-heart/internal/transcript"
	"github.com/ai-heart/ai-heart/internal/wakeup"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// wake asks for a wakeup from a chamber (schedule, idle). It never blocks:
// the delivery runs on its own goroutine; a flight in progress coalesces it.
func (a *agent) wake(source, text string) { a.request(wakeup.Ask{Source: source}, text) }

// wakeUrgent interrupts the agent and hands it the urgent feedback items. It
// goes through the gate like every invocation: it counts toward the daily cap.
func (a *agent) wakeUrgent(items []string) {
	a.mu.Lock()
	a.urgentAsked = nil
	if known(a.urgent, items) {
		a.urgentAsked = items // followed by the pulse until taken
	}
	a.mu.Unlock()
	a.request(wakeup.Ask{Source: srcFeedback, Takeover: true}, urgentFormat(a.cfg.Language, items))
}

// urgentFormat is the urgent wakeup's text for items, in language l.
func urgentFormat(l lang.Lang, items []string) string {
	return ja.F(l, "Urgent feedback: %s. Take it now with check_and_process_item (one file per call, with its text; it renames each processed.<name>), act on it before your current work, and record what you did in your activity log.", strings.Join(items, ", "))
}

// request asks the wakeup machine for a wakeup: refused by what stands
// (active hours for the schedule, the pause, recovery's give-up), coalesced into the
// flight in progress, or admitted and given its fate by fly. Each gets
// exactly one fate, counted by carry. It returns the fate of a wakeup
// refused or coalesced at once.
func (a *agent) request(ask wakeup.Ask, text string) (fate string) {
	now := a.clock.Now()
	a.mu.Lock()
	ask.Paused = a.paused != nil
	a.mu.Unlock()
	if ask.Source == srcSchedule || ask.Source == schedule.SourceExtra {
		ask.Outside = !a.cfg.Schedule.Active(now.In(a.loc))
	}
	source := ask.Source
	effs := a.gate.ask(ask, func(ctx context.Context, n int) { a.fly(ctx, n, source, text) })
	for _, e := range effs {
		if e.Kind == wakeup.Count {
			fate = e.Outcome
		}
	}
	a.carry(now, effs)
	return fate
}

// carry carries out the machine's effects on the flight's path, with no
// lock held; it reports whether the wakeup is to be delivered, and whether
// as the breaker's probe.
func (a *agent) carry(now time.Time, effs []wakeup.Effect) (deliver, probe bool) {
	for _, e := range effs {
		switch e.Kind {
		case wakeup.Count:
			a.outcome(e.Source, e.Outcome)
		case wakeup.Admit:
			a.count(func(c *state.Counters) { c.Wakeups++ })
		case wakeup.Skip:
			a.gate.breaker.Allow(now) // counts the skip
		case wakeup.Spent:
			a.log.Info().Str("source", e.Source).Msg("wakeup dropped: daily budget spent")
			a.checkBudget(now)
		case wakeup.Drop:
			_, first, err := a.gate.cap.Take(now) // counts the drop
			if err != nil {
				a.log.Warn().Err(err).Msg("daily cap state")
			}
			a.log.Info().Str("source", e.Source).Msg("wakeup dropped: daily cap reached")
			if first {
				st := a.gate.cap.State(now)
				a.emit(now, a.currentID(), checks.Warning, "daily_cap", fmt.Sprintf("daily cap of %d wakeups reached for %s; further wakeups today are dropped, recovery included", st.Limit, st.Day), 0)
			}
		case wakeup.Book:
			ok, _, err := a.gate.cap.Take(now)
			if err != nil {
				a.log.Warn().Err(err).Msg("daily cap state")
			}
			if !ok {
				a.log.Warn().Msg("the daily cap refused a wakeup the gate passed")
			}
			_, probe = a.gate.breaker.Allow(now)
		case wakeup.Worked:
			a.noteWork()
		case wakeup.Deliver:
			deliver = true
		}
	}
	return deliver, probe
}

// fly is one admitted wakeup, flight n: past the gate, its prompt built,
// delivered, and its fate counted.
func (a *agent) fly(ctx context.Context, n int, source, text string) {
	// The schedule fires on its own timer, often on the pulse's very tick:
	// wait for that pulse, so the prompt carries this moment's ID and
	// notices, not the previous pulse's (an introspection notice a second
	// after the introspection log). The chambers the pulse itself wakes
	// (idle, recovery, feedback) are fresh already.
	if source == srcSchedule {
		a.awaitPulse(ctx, a.clock.Now())
	}
	now := a.clock.Now()
	passed := a.gate.step(now, wakeup.Pass{N: n, Source: source, Facts: a.gate.facts(now, a.cfg.RateLimit.SpreadAt, a.cfg.RateLimit.SpreadMax.D())})
	deliver, probe := a.carry(now, passed)
	if !deliver {
		return
	}
	var owed wakeup.Owed // what this wakeup tells the agent, as the machine says
	for _, e := range passed {
		if e.Kind == wakeup.Deliver {
			owed = e.Owed
		}
	}
	a.mu.Lock()
	was := a.gate.recovery() // the attempt a recovery flight is made for
	a.mu.Unlock()
	// A takeover's keys, then the text, wait for the pane (a dialog, a
	// running turn): the text is composed once it may go in, from what
	// stands then, and a wakeup whose cause is gone is not sent at all.
	if id := a.currentID(); id != "" {
		a.interruptFor(ctx, source, id)
	} else {
		a.interruptFor(ctx, source, workspace.NewID(now.In(a.loc)))
	}
	if aw, ok := a.deliver.(delivery.Awaiter); ok {
		_ = aw.Await(ctx, pane.Type) // an error is the delivery's own, said by it
		now = a.clock.Now()          // the ID the tools name files with is this moment's
	}
	if source == srcFeedback {
		text = a.urgentText(text)
	}
	if why := a.moot(source, was, text); why != "" && ctx.Err() == nil {
		a.log.Info().Str("source", source).Str("why", why).Msg("wakeup not sent: its cause is gone")
		end := a.clock.Now()
		a.carry(end, a.gate.step(end, wakeup.Ran{N: n, Source: source, Start: now, Result: wakeup.Moot, Owed: owed}))
		return
	}
	a.mu.Lock()
	id := a.id
	if id == "" {
		id = workspace.NewID(now.In(a.loc))
	}
	paras, carried := a.noticesCarried(owed)
	noTheme := a.snap.LastLog == nil && a.snap.ThemeRecordID == ""
	a.mu.Unlock()
	if source == srcIdle {
		text = idleText(text, paras, a.cfg.Language, noTheme)
	}
	if source == srcFeedback {
		paras = withoutFeedback(paras) // the urgent text is the one procedure for its files
	}
	if source != srcRecovery { // the recovery notice is the recovery wakeup's text
		paras = append([]string{text}, paras...)
	}
	if n := a.cfg.Agent.MaxToolCalls; n > 0 && a.deliver.Traits().RunIsTheWork {
		// Known before it strikes: a cut run answers nothing, and the
		// agent can only close its cycle in time if it knows the limit.
		paras = append(paras, ja.F(a.cfg.Language, "This run may make at most %d tool calls: the watchdog ends it at call %d, and a run it ends answers nothing; the call that writes your activity log counts too. Close the cycle with an activity log well before that.", n, n+1))
	}
	text = prompt.Build(string(id), paras...)

	exec := a.deliver.Traits().RunIsTheWork
	run := ""
	if exec {
		// The run's client tags its telemetry with this: only what it
		// reports is booked to the run.
		run = newRunID()
		ctx = delivery.WithRun(ctx, a.name, run)
		a.mu.Lock()
		a.execRun, a.retryEnd = run, time.Time{}
		a.mu.Unlock()
	}
	a.noteWorkBefore(ctx, now)
	a.log.Debug().Str("source", source).Str("heartbeat_id", string(id)).Msg("delivering wakeup")
	res, err := a.deliver.Deliver(ctx, text)
	end := a.clock.Now()
	ran := wakeup.Ran{N: n, Source: source, Start: now, Result: resultOf(ctx, err), Owed: owed}
	if !res.Sent.IsZero() {
		// Typed into a pane, the wakeup begins when it went in: it may
		// have waited at a dialog or a running turn, and inactivity and
		// the turn that answers it count from then.
		ran.Start = res.Sent
	}
	if ran.Result == wakeup.Stopped {
		// The watchdog stops (a reload waits for the run instead): the run
		// it ended is booked, counted and logged like any failed run, so
		// the ledger, the counts and the log agree; the breaker does not
		// hear of it, as it is not the agent's failure.
		a.carry(end, a.gate.step(end, ran))
		a.log.Info().Str("source", source).Str("heartbeat_id", string(id)).Msg("run ended: the watchdog stops")
		if exec {
			a.spend(source, cost.Failed, res.Usage, cost.FromStream) // what it used is spent all the same
		}
		return
	}
	takenOver := ran.Result == wakeup.TakenOver
	if takenOver {
		err = fmt.Errorf("ended unanswered by a takeover: %w", err)
	}
	if err != nil && exec && !takenOver {
		ran.Cut = a.endedBy(err, res)
	}
	if exec {
		a.runSaid(end, id, res, err)
	}
	a.mu.Lock()
	if exec && a.cfg.Agent.Output == config.OutputStreamJSON {
		a.refusals = checks.Refusals{Seen: true, At: end, Tools: res.Refused, Refused: res.RefusedCalls, Calls: res.ToolCalls}
	}
	if err == nil && source != srcRecovery {
		// A recovery attempt reaches an agent that has not answered: the
		// event notices it carried go on with the next attempt too (the
		// strict expiry's order was gone from attempt 2).
		a.carried(carried)
	}
	a.mu.Unlock()
	effs := a.gate.step(end, ran) // its effects are carried out by account
	// A run the watchdog ended is not the delivery's failure, nor is a
	// service that asked for a rest or refused the agent; a probe must
	// still be recorded, or the breaker would wait for it for ever.
	service := err != nil && res.ServiceError != "" && a.serviceFailed(end, id, res.ServiceError, now)
	if (!takenOver && !service) || probe {
		a.recordDelivery(end, id, err)
	}
	if err == nil && exec {
		a.serviceAnswers(end, id) // tmux and inbox: the turn's end says so (readHooks)
	}
	if err == nil && a.deliver.Method() == config.DeliveryTmux {
		a.tmuxWorks(end, id)
	}
	a.account(source, id, run, now, text, res, err, probe, effs)
}

// withoutFeedback drops the feedback check's notice: an urgent wakeup's own
// text says how to take its files, and a second procedure for the same file
// ("in your next activity log") beside "take it now" told two stories. The
// check_and_process_item reply names whatever else waits.
func withoutFeedback(paras []string) []string {
	out := paras[:0:0]
	for _, p := range paras {
		if !strings.HasPrefix(p, "[info] "+checks.Feedback+": ") {
			out = append(out, p)
		}
	}
	return out
}

// resultOf names how a delivery ended, for the machine.
func resultOf(ctx context.Context, err error) wakeup.Result {
	switch {
	case err == nil:
		return wakeup.OK
	case ctx.Err() != nil && context.Cause(ctx) == errTakenOver:
		return wakeup.TakenOver
	case ctx.Err() != nil && errors.Is(err, context.Canceled):
		return wakeup.Stopped
	case errors.Is(err, delivery.ErrToolCap):
		return wakeup.ToolCapped
	case errors.Is(err, delivery.ErrTokenCap):
		return wakeup.TokenCapped
	case errors.Is(err, delivery.ErrRefused):
		return wakeup.Refused
	}
	return wakeup.Failed
}

// recordDelivery tells the circuit breaker how the delivery went and alerts
// when that opened or closed it.
func (a *agent) recordDelivery(end time.Time, id workspace.ID, err error) {
	changed, rerr := a.gate.breaker.Record(end, err == nil)
	a.wrote(end, "circuit breaker state", rerr)
	if !changed {
		return
	}
	st := a.gate.breaker.State(end)
	level, msg := checks.OK, "delivery works again; circuit breaker closed"
	if st.State != budget.Closed {
		level, msg = checks.Warning, fmt.Sprintf("circuit breaker %s after %d delivery failures; wakeups paused for %s", st.State, st.Failures, humanize.Duration(st.CooldownLeft))
	}
	a.emit(end, id, level, "circuit_breaker", msg, 0)
}

// account carries out a delivered wakeup's end: its fate as the machine
// named it, what the run cost, and its transcript line (exec replies other
// than ghosts).
func (a *agent) account(source string, id workspace.ID, run string, now time.Time, text string, res delivery.Result, err error, probe bool, effs []wakeup.Effect) {
	entry := transcript.Entry{Time: now, Agent: a.name, Source: source, Prompt: text, Reply: res.Reply, DurationMS: res.Duration.Milliseconds(), ExitCode: res.ExitCode, Signal: res.Signal, Truncated: res.Truncated}
	exec := a.deliver.Traits().RunIsTheWork
	if exec {
		end := a.clock.Now()
		u, from := a.withTelemetry(teleBind{run: run}, end, res.Usage, cost.FromStream)
		a.mu.Lock()
		a.execRun = ""
		a.mu.Unlock()
		entry.Run = a.spend(source, costOutcome(res, err), u, from)
		if err == nil && (res.Reply != "" || res.Usage != nil) {
			// The run's output spoke and the run ended on its own: a turn's
			// end the other channels must have reported (a run ended for
			// its timeout may have left them rightly quiet).
			a.mu.Lock()
			a.heard.exec = end
			a.mu.Unlock()
		}
	}
	fate := ""
	for _, e := range effs {
		if e.Kind == wakeup.Count {
			fate = e.Outcome
		}
	}
	a.carry(a.clock.Now(), effs)
	switch fate {
	case state.OutcomeToolCapped, state.OutcomeTokenCapped:
		// A failure for the breaker and the totals. Ended and discarded
		// like a ghost (no transcript).
		a.count(func(c *state.Counters) { c.DeliveryFailures++ })
		a.log.Warn().Err(err).Str("source", source).Bool("probe", probe).Msg("delivery failed")
		return
	case state.OutcomeToolRefused:
		// The client refused every call: the run did nothing, so it is no
		// answer. A failure for the breaker and the totals; its transcript
		// says what the agent made of it.
		a.count(func(c *state.Counters) { c.DeliveryFailures++ })
		a.log.Warn().Err(err).Str("source", source).Bool("probe", probe).Msg("delivery failed")
	case state.OutcomeTakenOver:
		a.log.Info().Err(err).Str("source", source).Msg("run ended by a takeover")
	case state.OutcomeFailed:
		a.log.Warn().Err(err).Str("source", source).Bool("probe", probe).Msg("delivery failed")
	default:
		a.log.Info().Str("source", source).Str("heartbeat_id", string(id)).Str("delivery", a.deliver.Method()).Msg("agent woken")
	}
	if exec && err == nil && fate != state.OutcomeToolRefused {
		entry.Work = a.noteWorkAfter(context.Background(), source, a.clock.Now(), transcript.IsGhost(res.Said))
	}
	if err != nil {
		entry.Error = err.Error()
	}
	if !exec {
		return
	}
	if err == nil && transcript.IsGhost(res.Said) {
		a.outcome(source, state.OutcomeGhost)
		return // ghost mode: counted, no trace
	}
	a.wrote(a.clock.Now(), "wakeup transcript", transcript.Append(a.ws, a.loc, entry))
}

// awaitPulse waits for the pulse due on at's very tick (the schedule and
// the pulse share ticks), so what is composed next is its verdict. A pulse
// due later is not waited for: the last one is recent enough.
func (a *agent) awaitPulse(ctx context.Context, at time.Time) {
	iv := a.cfg.Pulse.Interval.D()
	a.mu.Lock()
	last, ch := a.last.PulseAt, a.pulsed
	a.mu.Unlock()
	if iv <= 0 || last.IsZero() || !at.After(last) || last.Add(iv).Sub(at) > iv/10 {
		return // fresh, or no pulse due on this tick
	}
	t := time.NewTimer(iv / 5)
	defer t.Stop()
	select {
	case <-ch:
	case <-t.C:
	case <-ctx.Done():
	}
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
