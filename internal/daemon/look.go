package daemon

import (
	"time"

	"github.com/ai-heart/ai-heart/internal/checks"
	"github.com/ai-heart/ai-heart/internal/delivery"
	"github.com/ai-heart/ai-heart/internal/pane"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// lookBeforeTyping makes every key the watchdog sends the agent's pane wait
// for the look (package pane decides, from the screen and the hooks), says
// in the log what holds it, and takes a prompt the hooks heard as the
// wakeup's receipt.
func (a *agent) lookBeforeTyping(t *delivery.Tmux) {
	t.Look = a.lookAt
	t.Waits = func(why string) {
		source, _, _ := a.gate.inFlight()
		if why == "" {
			a.log.Info().Str("source", source).Msg("the pane is free: the key that waited goes in")
			return
		}
		a.log.Info().Str("source", source).Str("why", why).Msg("nothing typed into the pane: waiting")
	}
	t.Refused = a.refusedTmux
	t.Heard = func(since time.Time) bool {
		a.mu.Lock()
		defer a.mu.Unlock()
		return a.activity.Prompted && !a.activity.TurnStart.Before(since)
	}
}

// lookAt is the one decision on a key for the pane showing screen. The
// operator's agent.client reads it strictly (a screen without that
// client's input line is no place to type); without one, any known
// client's screen is recognised, and an unknown screen leaves the decision
// to the hooks (whose name for the client the agent could forge).
func (a *agent) lookAt(screen string, p pane.Purpose) pane.Verdict {
	v := pane.Read(screen, a.cfg.Agent.Client)
	a.mu.Lock()
	h := pane.Hooks{Asking: a.activity.Asking, AskSince: a.activity.AskSince, AskWhat: a.activity.AskWhat}
	a.sawScreenLocked(v) // after h: the decision is on the ask as the hooks said it
	a.mu.Unlock()
	return pane.Decide(v, h, p, a.clock.Now())
}

// refusedTmux alerts, once for each new reason, that nothing goes to the
// pane because its tmux socket is not the watchdog's own: a server of
// another user could make the watchdog run its programs.
func (a *agent) refusedTmux(err error) {
	a.mu.Lock()
	seen := a.tmuxRefused == err.Error()
	a.tmuxRefused = err.Error()
	id := a.id
	a.mu.Unlock()
	if seen {
		return
	}
	a.log.Error().Err(err).Msg("the tmux socket is refused: nothing is typed into the pane")
	a.emit(a.clock.Now(), id, checks.Error, "delivery", err.Error()+"; nothing is typed into the pane until it is", 0)
}

// tmuxWorks ends a spell of refused tmux sockets once a wakeup went in.
func (a *agent) tmuxWorks(now time.Time, id workspace.ID) {
	a.mu.Lock()
	was := a.tmuxRefused
	a.tmuxRefused = ""
	a.mu.Unlock()
	if was != "" {
		a.emit(now, id, checks.OK, "delivery", "the tmux socket is the watchdog's own again: wakeups go into the pane", 0)
	}
}
