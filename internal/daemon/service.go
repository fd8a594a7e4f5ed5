package daemon

import (
	"fmt"
	"time"

	"github.com/ai-heart/ai-heart/internal/checks"
	"github.com/ai-heart/ai-heart/internal/clients"
	"github.com/ai-heart/ai-heart/internal/clients/client"
	"github.com/ai-heart/ai-heart/internal/humanize"
	"github.com/ai-heart/ai-heart/internal/lang"
	"github.com/ai-heart/ai-heart/internal/wakeup"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// When the model's service fails a turn (Claude Code's StopFailure hook, or
// the error in an exec run's stream-json), nothing retries a run that cannot
// succeed: the wakeups are held for a while, without spending the circuit
// breaker's failures, and then one wakeup probes the service, as the
// breaker does. A probe that fails again holds twice as long, up to
// circuit_breaker.max_cooldown; one that succeeds ends the streak.
//
// A hook line is the agent's word (it can pipe any line to heart-hook), so
// a failure never pauses monitoring: a refusal (credentials, billing) is an
// error alert that needs the operator, and a hold like a rate limit's. The
// checks go on during a hold: the agent waits for the service, as it waits
// for its next wakeup. A failure said again during a hold does not lengthen
// it; after a hold only the probe's own failure holds again.

// serviceFate is what a service failure says of the service.
type serviceFate int

const (
	serviceOther    serviceFate = iota // a failure like any: the breaker counts it
	serviceBusy                        // rate-limited or overloaded: it will answer later
	serviceNeedsYou                    // refused: the operator must fix credentials or billing
)

// fateOf classifies a client's error type (its adapter's failure words:
// Claude Code's StopFailure matcher values).
func fateOf(kind string) serviceFate {
	switch clients.Fate(kind) {
	case client.Busy:
		return serviceBusy
	case client.NeedsYou:
		return serviceNeedsYou
	}
	return serviceOther
}

// serviceHold is the rest the model's service asked for. Guarded by the
// gate's lock.
type serviceHold struct {
	until  time.Time // wakeups are held until then
	kind   string    // the failure that began the hold
	limit  string    // the rate limit's window whose reset it waits for ("": a failure's)
	streak int       // holds in a row with no answer between: each twice the last
}

// fail folds in a service failure of kind at now. woken is when the wakeup
// the failure ends was delivered (zero: none known). It reports whether a
// hold begins: not while one is in force (a line said again extends
// nothing), and after a hold only for the probe, a wakeup delivered since
// that hold ended.
func (h *serviceHold) fail(now time.Time, kind string, woken time.Time, base, ceiling time.Duration) bool {
	if now.Before(h.until) {
		return false
	}
	if h.streak > 0 && (woken.IsZero() || woken.Before(h.until)) {
		return false
	}
	d := base
	for i := 0; i < h.streak && d < ceiling; i++ {
		d *= 2
	}
	d = min(d, max(ceiling, base))
	h.streak++
	h.until, h.kind, h.limit = now.Add(d), kind, ""
	return true
}

// holdService folds a service failure into the gate's hold and returns the
// hold as it stands, and whether it began now.
func (g *gate) holdService(now time.Time, kind string, woken time.Time, base, ceiling time.Duration) (serviceHold, bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	began := g.svc.fail(now, kind, woken, base, ceiling)
	return g.svc, began
}

// serviceAnswered ends the streak of holds: the service answered a turn.
func (g *gate) serviceAnswered() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.svc.streak = 0
}

// serviceFailed acts on a service failure of kind, learnt at now, ending
// the wakeup delivered at woken (zero: none known), and reports whether it
// was one the breaker must not count. A hold that begins is one alert, and
// the wakeup it ends is over: the agent waits for the service.
func (a *agent) serviceFailed(now time.Time, id workspace.ID, kind string, woken time.Time) bool {
	fate := fateOf(kind)
	if fate == serviceOther {
		return false
	}
	cb := a.cfg.CircuitBreaker
	h, began := a.gate.holdService(now, kind, woken, cb.Cooldown.D(), cb.MaxCooldown.D())
	if !began {
		a.log.Debug().Str("failure", kind).Time("held_until", h.until).Msg("service failure within a hold, or not the probe's: no new hold")
		return true
	}
	a.mu.Lock()
	a.serviceAlerted = true
	// The agent waits for the service, not for its own work, and hears of
	// the quiet spell from the next wakeup.
	a.gate.step(now, wakeup.Wait{Quiet: &wakeup.Quiet{Kind: kind, At: now, Until: h.until}})
	a.mu.Unlock()
	a.noteWork()
	hold := fmt.Sprintf("wakeups held until %s (%s), then one wakeup probes it", h.until.In(a.loc).Format("15:04:05"), humanize.Duration(h.until.Sub(now)))
	if h.streak > 1 {
		hold = fmt.Sprintf("the probe failed too (hold %d in a row): ", h.streak) + hold
	}
	if fate == serviceNeedsYou {
		a.emit(now, id, checks.Error, "service", fmt.Sprintf("needs you: the model's service refused the agent (%s): fix its credentials or billing; %s", kind, hold), 0)
		return true
	}
	a.emit(now, id, checks.Warning, "service", fmt.Sprintf("the model's service answered %s: %s, with no retry meanwhile", kind, hold), 0)
	return true
}

// serviceAnswers says, once, that the model's service answered again after
// a failure was alerted: a run succeeded, or a turn ended well.
func (a *agent) serviceAnswers(at time.Time, id workspace.ID) {
	a.gate.serviceAnswered()
	a.mu.Lock()
	was := a.serviceAlerted
	a.serviceAlerted = false
	a.mu.Unlock()
	if was {
		a.emit(at, id, checks.OK, "service", "the model's service answers again", 0)
	}
}

// serviceNotice tells the agent why no wakeup came for a while, in
// language l: the model's own limit, not report_tool_usage's.
func serviceNotice(n *wakeup.Quiet, loc *time.Location, l lang.Lang) string {
	return ja.F(l, "The model's service answered %s at %s, so the watchdog held your wakeups until %s and then tried once more. This was the model's own limit, not one of report_tool_usage's. If work was cut off, pick it up now.",
		n.Kind, n.At.In(loc).Format("15:04:05"), n.Until.In(loc).Format("15:04:05"))
}
