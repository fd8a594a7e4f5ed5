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
	"github.com/ai-heart/ai-heart/internal/delivery"
	"github.com/ai-heart/ai-heart/internal/humanize"
	"github.com/ai-heart/ai-heart/internal/prompt"
	"github.com/ai-heart/ai-heart/internal/state"
	"github.com/ai-heart/ai-heart/internal/transcript"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// wake asks for a wakeup from a chamber. It never blocks: the delivery runs
// on its own goroutine; one already in flight coalesces this one.
func (a *agent) wake(source, text string) {
	a.mu.Lock()
	if a.paused != nil {
		a.counters.Wakeup(source, state.OutcomePaused)
		a.mu.Unlock()
		return
	}
	if a.rec.GaveUp {
		a.counters.Wakeup(source, state.OutcomeSkipped)
		a.mu.Unlock()
		return
	}
	if a.inFlight {
		a.counters.Wakeup(source, state.OutcomeCoalesced)
		a.mu.Unlock()
		return
	}
	if a.deliverC == nil || a.deliverC.Err() != nil {
		a.mu.Unlock()
		return // shutting down
	}
	now := a.clock.Now()
	a.inFlight, a.flightSrc, a.flightAt = true, source, now
	a.counters.Wakeups++
	a.mu.Unlock()
	a.wg.Add(1)
	go func() {
		defer a.wg.Done()
		a.deliverOne(source, text, now)
	}()
}

// wakeUrgent interrupts the agent and hands it the urgent feedback items. It
// takes over from a wakeup in flight, as recovery does, and goes through the
// gate like every invocation: it counts toward the daily cap.
func (a *agent) wakeUrgent(items []string) {
	a.mu.Lock()
	a.inFlight = false
	a.mu.Unlock()
	a.wake(srcFeedback, ja.F(a.cfg.Language, "Urgent feedback: %s. Read it now, act on it, and rename it processed.<name> when it is handled.", strings.Join(items, ", ")))
}

// deliverOne gates a wakeup by the breaker and the daily cap, builds the
// prompt and delivers it.
func (a *agent) deliverOne(source, text string, now time.Time) {
	keepFlight := false
	defer func() {
		if !keepFlight {
			a.mu.Lock()
			a.inFlight = false
			a.mu.Unlock()
		}
	}()
	// Breaker first when it is plainly open, so a skipped wakeup spends no
	// cap; the cap before Allow, so a dropped wakeup never holds the probe.
	if st := a.breaker.State(now); st.State == budget.Open && st.CooldownLeft > 0 {
		a.breaker.Allow(now) // counts the skip
		a.outcome(source, state.OutcomeSkipped)
		return
	}
	// Every invocation counts: schedule, idle, recovery and urgent feedback.
	ok, first, err := a.cap.Take(now)
	if err != nil {
		a.log.Warn().Err(err).Msg("daily cap")
	}
	if !ok {
		a.outcome(source, state.OutcomeDroppedCap)
		a.log.Info().Str("source", source).Msg("wakeup dropped: daily cap reached")
		if first {
			st := a.cap.State(now)
			a.emit(now, a.currentID(), checks.Warning, "daily_cap", fmt.Sprintf("daily cap of %d wakeups reached for %s; further wakeups today are dropped, recovery included", st.Limit, st.Day), 0)
		}
		return
	}
	ok, probe := a.breaker.Allow(now)
	if !ok {
		a.outcome(source, state.OutcomeSkipped)
		return
	}
	a.mu.Lock()
	id := a.id
	if id == "" {
		id = workspace.NewID(now.In(a.loc))
	}
	paras := append([]string{text}, a.notices()...)
	a.mu.Unlock()
	if source == srcRecovery {
		paras = paras[1:]
	}
	text = prompt.Build(string(id), paras...)
	if source == srcFeedback {
		if in, ok := a.deliver.(delivery.Interrupter); ok {
			if err := in.Interrupt(a.deliverC); err != nil {
				a.log.Warn().Err(err).Msg("interrupt for urgent feedback")
			}
		}
	}

	exec := a.deliver.Method() == config.DeliveryExec
	if exec {
		a.mu.Lock()
		a.work.delivered(now) // the run is the work
		a.mu.Unlock()
	}
	a.log.Debug().Str("source", source).Str("heartbeat_id", string(id)).Msg("delivering wakeup")
	res, err := a.deliver.Deliver(a.deliverC, text)
	end := a.clock.Now()
	a.mu.Lock()
	switch {
	case exec:
		a.work.answered() // the end of the run answers the wakeup
	case err == nil:
		a.work.delivered(now) // answered by an activity log after it
	}
	a.mu.Unlock()
	if errors.Is(err, context.Canceled) && a.deliverC.Err() != nil {
		return // shutting down: not the agent's failure
	}
	changed, rerr := a.breaker.Record(end, err == nil)
	if rerr != nil {
		a.log.Warn().Err(rerr).Msg("circuit breaker state")
	}
	if changed {
		st := a.breaker.State(end)
		level, msg := checks.OK, "delivery works again; circuit breaker closed"
		if st.State != budget.Closed {
			level, msg = checks.Warning, fmt.Sprintf("circuit breaker %s after %d delivery failures; wakeups paused for %s", st.State, st.Failures, humanize.Duration(st.CooldownLeft))
		}
		a.emit(end, id, level, "circuit_breaker", msg, 0)
	}
	a.mu.Lock()
	a.lastWakeup = now
	if source == srcIdle {
		a.idle = true
	}
	a.mu.Unlock()
	entry := transcript.Entry{Time: now, Agent: a.name, Source: source, Prompt: text, Reply: res.Reply, DurationMS: res.Duration.Milliseconds(), ExitCode: res.ExitCode, Truncated: res.Truncated}
	if err != nil {
		if errors.Is(err, delivery.ErrToolCap) {
			// A failure for the breaker and the totals; its one fate by
			// source is tool_capped, counted below.
			a.count(func(c *Counters) { c.DeliveryFailures++ })
		} else {
			a.outcome(source, state.OutcomeFailed)
		}
		a.log.Warn().Err(err).Str("source", source).Bool("probe", probe).Msg("delivery failed")
		entry.Error = err.Error()
	} else {
		a.outcome(source, state.OutcomeDelivered)
		a.log.Info().Str("source", source).Str("heartbeat_id", string(id)).Str("delivery", a.deliver.Method()).Msg("agent woken")
		keepFlight = a.deliver.Method() == config.DeliveryTmux
	}
	if a.deliver.Method() != config.DeliveryExec {
		return
	}
	if errors.Is(err, delivery.ErrToolCap) {
		// Past the per-wakeup tool cap: ended and discarded like a ghost
		// (no transcript); the breaker has counted it as a failure.
		a.outcome(source, state.OutcomeToolCapped)
		return
	}
	if err == nil && transcript.IsGhost(res.Reply) {
		a.outcome(source, state.OutcomeGhost)
		return // ghost mode: counted, no trace
	}
	if err := transcript.Append(a.ws, a.loc, entry); err != nil {
		a.log.Warn().Err(err).Msg("wakeup transcript")
	}
}

// capSpent reports whether the daily cap allows no more invocations today.
func (a *agent) capSpent(now time.Time) bool {
	st := a.cap.State(now)
	return st.Limit > 0 && st.Used >= st.Limit
}
