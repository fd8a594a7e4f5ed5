package daemon

import (
	"fmt"
	"time"

	"github.com/ai-heart/ai-heart/internal/checks"
	"github.com/ai-heart/ai-heart/internal/humanize"
	"github.com/ai-heart/ai-heart/internal/pause"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// When the model's service fails a turn (Claude Code's StopFailure hook, or
// the error in an exec run's stream-json), nothing retries a run that cannot
// succeed: a busy service holds every wakeup for a while, without spending
// the circuit breaker's failures; a refusal (credentials, billing) stops
// wakeups until the operator says `watchdog resume`.

// serviceFate is what a service failure does to the wakeups.
type serviceFate int

const (
	serviceOther    serviceFate = iota // a failure like any: the breaker counts it
	serviceBusy                        // rate-limited or overloaded: hold wakeups
	serviceNeedsYou                    // refused: stop wakeups until resume
)

// fateOf classifies a client's error type (Claude Code's StopFailure
// matcher values).
func fateOf(kind string) serviceFate {
	switch kind {
	case "rate_limit", "overloaded", "server_error":
		return serviceBusy
	case "authentication_failed", "billing_error", "oauth_org_not_allowed":
		return serviceNeedsYou
	}
	return serviceOther
}

// serviceFailed acts on a service failure of kind at at, and reports
// whether it was one the breaker must not count.
func (a *agent) serviceFailed(at time.Time, id workspace.ID, kind string) bool {
	fate := fateOf(kind)
	if fate != serviceOther {
		a.mu.Lock()
		a.serviceAlerted = true
		a.mu.Unlock()
	}
	switch fate {
	case serviceBusy:
		until := at.Add(a.cfg.CircuitBreaker.Cooldown.D())
		a.gate.hold(until)
		a.emit(at, id, checks.Warning, "service", fmt.Sprintf("the model's service answered %s: wakeups held until %s (circuit_breaker.cooldown, %s), with no retry meanwhile",
			kind, until.In(a.loc).Format("15:04:05"), humanize.Duration(a.cfg.CircuitBreaker.Cooldown.D())), 0)
		return true
	case serviceNeedsYou:
		why := fmt.Sprintf("the model's service refused the agent (%s): fix its credentials or billing, then `watchdog resume`", kind)
		p := pause.Pause{Since: at, Reason: why, By: "the watchdog"}
		if err := pause.Set(a.cfg.PauseFile(), p); err != nil {
			a.log.Error().Err(err).Msg("stop wakeups after a refusal")
		}
		// In force now, not at the next pulse: no wakeup may slip through.
		a.mu.Lock()
		was := a.paused
		if was == nil {
			a.paused = &p
		}
		a.mu.Unlock()
		a.emit(at, id, checks.Error, "service", "needs you: "+why+"; wakeups stopped", 0)
		if was == nil {
			a.emit(at, id, checks.Warning, "pause", pausedMessage(&p, a.loc), 0)
		}
		return true
	}
	return false
}

// serviceAnswers says, once, that the model's service answered again after
// a failure was alerted: a run succeeded.
func (a *agent) serviceAnswers(at time.Time, id workspace.ID) {
	a.mu.Lock()
	was := a.serviceAlerted
	a.serviceAlerted = false
	a.mu.Unlock()
	if was {
		a.emit(at, id, checks.OK, "service", "the model's service answers again", 0)
	}
}
