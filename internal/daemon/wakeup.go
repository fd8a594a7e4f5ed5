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
	"github.com/ai-heart/ai-heart/internal/prompt"
	"github.com/ai-heart/ai-heart/internal/state"
	"github.com/ai-heart/ai-heart/internal/transcript"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// wake asks for a wakeup from a chamber (schedule, idle). It never blocks:
// the delivery runs on its own goroutine; a flight in progress coalesces it.
func (a *agent) wake(source, text string) { a.request(source, text, false) }

// takeOver wakes the agent for recovery or urgent feedback. It ends the
// flight in progress (an exec run gets SIGTERM, then SIGKILL) and delivers
// once that run is gone. It never blocks the pulse.
func (a *agent) takeOver(source, text string) { a.request(source, text, true) }

// wakeUrgent interrupts the agent and hands it the urgent feedback items. It
// goes through the gate like every invocation: it counts toward the daily cap.
func (a *agent) wakeUrgent(items []string) {
	a.takeOver(srcFeedback, ja.F(a.cfg.Language, "Urgent feedback: %s. Take it now with check_and_process_item (one file per call, with its text; it renames each processed.<name>), act on it before your current work, and record what you did in your activity log.", strings.Join(items, ", ")))
}

// request counts every wakeup asked for exactly once: refused here (paused,
// recovery gave up), coalesced into the flight in progress, or admitted and
// given its fate by fly.
func (a *agent) request(source, text string, takeover bool) {
	a.mu.Lock()
	refused := ""
	switch {
	case a.paused != nil:
		refused = state.OutcomePaused
	case a.rec.GaveUp:
		refused = state.OutcomeGaveUp
	}
	if refused != "" {
		a.counters.Wakeup(source, refused)
		a.mu.Unlock()
		return
	}
	a.mu.Unlock()
	admitted, shutdown := a.gate.open(source, takeover, func(ctx context.Context) bool {
		return a.fly(ctx, source, text)
	})
	switch {
	case shutdown:
	case admitted:
		a.count(func(c *state.Counters) { c.Wakeups++ })
	default:
		a.outcome(source, state.OutcomeCoalesced)
	}
}

// fly is one admitted wakeup: gated by the breaker and the daily cap, its
// prompt built, delivered, and its fate counted. It reports whether the
// wakeup stays in flight until the agent answers (tmux).
func (a *agent) fly(ctx context.Context, source, text string) (hold bool) {
	// The schedule fires on its own timer, often on the pulse's very tick:
	// wait for that pulse, so the prompt carries this moment's ID and
	// notices, not the previous pulse's (an introspection notice a second
	// after the introspection log). The chambers the pulse itself wakes
	// (idle, recovery, feedback) are fresh already.
	if source == srcSchedule {
		a.awaitPulse(ctx, a.clock.Now())
	}
	if superseded(ctx) {
		if !a.gate.shuttingDown() {
			a.outcome(source, state.OutcomeCoalesced) // taken over before it began
		}
		return false
	}
	now := a.clock.Now()
	var outcome string
	var probe, capReached bool
	var err error
	if source == srcSchedule && a.gate.spreadOut(now, a.cfg.RateLimit.SpreadAt) {
		outcome = state.OutcomeHeldService // the rest of a rate limit is spread until its reset: no cap spent
	} else {
		outcome, probe, capReached, err = a.gate.pass(now)
	}
	if err != nil {
		a.log.Warn().Err(err).Msg("daily cap or circuit breaker state")
	}
	if outcome != "" {
		a.outcome(source, outcome)
		if outcome == state.OutcomeDroppedBudget {
			a.log.Info().Str("source", source).Msg("wakeup dropped: daily budget spent")
			a.checkBudget(now)
		}
		if outcome == state.OutcomeDroppedCap {
			a.log.Info().Str("source", source).Msg("wakeup dropped: daily cap reached")
			if capReached {
				st := a.gate.cap.State(now)
				a.emit(now, a.currentID(), checks.Warning, "daily_cap", fmt.Sprintf("daily cap of %d wakeups reached for %s; further wakeups today are dropped, recovery included", st.Limit, st.Day), 0)
			}
		}
		return false
	}

	a.mu.Lock()
	id := a.id
	if id == "" {
		id = workspace.NewID(now.In(a.loc))
	}
	paras, carried := a.noticesCarried()
	a.mu.Unlock()
	if source == srcIdle {
		text = idleText(text, paras, a.cfg.Language)
	}
	if source != srcRecovery { // the recovery notice is the recovery wakeup's text
		paras = append([]string{text}, paras...)
	}
	text = prompt.Build(string(id), paras...)
	a.interruptFor(ctx, source, id)

	exec := a.deliver.Traits().RunIsTheWork
	if exec {
		a.mu.Lock()
		a.work.delivered(now) // the run is the work
		a.mu.Unlock()
		a.noteWork()
	}
	a.log.Debug().Str("source", source).Str("heartbeat_id", string(id)).Msg("delivering wakeup")
	res, err := a.deliver.Deliver(ctx, text)
	end := a.clock.Now()
	if err != nil && a.gate.shuttingDown() && errors.Is(err, context.Canceled) {
		// The watchdog stops (a reload waits for the run instead): the run
		// it ended is booked, counted and logged like any failed run, so
		// the ledger, the counts and the log agree; the breaker does not
		// hear of it, as it is not the agent's failure.
		a.outcome(source, state.OutcomeFailed)
		a.log.Info().Str("source", source).Str("heartbeat_id", string(id)).Msg("run ended: the watchdog stops")
		if exec {
			a.spend(source, cost.Failed, res.Usage, cost.FromStream) // what it used is spent all the same
		}
		return false
	}
	takenOver := err != nil && context.Cause(ctx) == errTakenOver
	if takenOver {
		err = fmt.Errorf("ended unanswered by a takeover: %w", err)
	}
	a.mu.Lock()
	if exec && a.cfg.Agent.Output == config.OutputStreamJSON {
		a.refusals = checks.Refusals{Seen: true, At: end, Tools: res.Refused, Refused: res.RefusedCalls, Calls: res.ToolCalls}
	}
	switch {
	case err != nil:
		// No answer: a failed, timed-out, capped or ended run leaves the
		// agent working, its stretch still counted from the first wakeup,
		// and named for what ended the run.
		if exec && !takenOver {
			a.work.cut(end, a.endedBy(err, res))
		}
	case exec:
		a.work.answered(end) // a successful end of the run answers the wakeup
	default:
		a.work.delivered(now) // answered later by the turn's end or a log
	}
	if err == nil {
		a.carried(carried)
	}
	a.mu.Unlock()
	a.noteWork()
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
	a.gate.delivered(now, source == srcIdle)
	a.account(source, id, now, text, res, err, takenOver, probe)
	return err == nil && a.deliver.Traits().Holds
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

// account counts a delivered wakeup's fate and keeps its transcript line
// (exec replies other than ghosts).
func (a *agent) account(source string, id workspace.ID, now time.Time, text string, res delivery.Result, err error, takenOver, probe bool) {
	entry := transcript.Entry{Time: now, Agent: a.name, Source: source, Prompt: text, Reply: res.Reply, DurationMS: res.Duration.Milliseconds(), ExitCode: res.ExitCode, Signal: res.Signal, Truncated: res.Truncated}
	if a.deliver.Traits().RunIsTheWork {
		end := a.clock.Now()
		u, from := a.withTelemetry(now, end, res.Usage, cost.FromStream)
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
	switch {
	case errors.Is(err, delivery.ErrToolCap), errors.Is(err, delivery.ErrTokenCap):
		// A failure for the breaker and the totals; its one fate by source
		// is tool_capped or token_capped. Ended and discarded like a ghost
		// (no transcript).
		a.count(func(c *state.Counters) { c.DeliveryFailures++ })
		if errors.Is(err, delivery.ErrTokenCap) {
			a.outcome(source, state.OutcomeTokenCapped)
		} else {
			a.outcome(source, state.OutcomeToolCapped)
		}
		a.log.Warn().Err(err).Str("source", source).Bool("probe", probe).Msg("delivery failed")
		return
	case errors.Is(err, delivery.ErrRefused):
		// The client refused every call: the run did nothing, so it is no
		// answer. A failure for the breaker and the totals, its one fate
		// tool_refused; its transcript says what the agent made of it.
		a.count(func(c *state.Counters) { c.DeliveryFailures++ })
		a.outcome(source, state.OutcomeToolRefused)
		a.log.Warn().Err(err).Str("source", source).Bool("probe", probe).Msg("delivery failed")
		entry.Error = err.Error()
	case takenOver:
		a.outcome(source, state.OutcomeTakenOver)
		a.log.Info().Err(err).Str("source", source).Msg("run ended by a takeover")
		entry.Error = err.Error()
	case err != nil:
		a.outcome(source, state.OutcomeFailed)
		a.log.Warn().Err(err).Str("source", source).Bool("probe", probe).Msg("delivery failed")
		entry.Error = err.Error()
	default:
		a.outcome(source, state.OutcomeDelivered)
		a.log.Info().Str("source", source).Str("heartbeat_id", string(id)).Str("delivery", a.deliver.Method()).Msg("agent woken")
	}
	if !a.deliver.Traits().RunIsTheWork {
		return
	}
	if err == nil && transcript.IsGhost(res.Reply) {
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
