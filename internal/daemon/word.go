package daemon

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/ai-heart/ai-heart/internal/checks"
	"github.com/ai-heart/ai-heart/internal/clients"
	"github.com/ai-heart/ai-heart/internal/clock"
	"github.com/ai-heart/ai-heart/internal/hook"
)

// A turn that runs on in the client's own tools reads no heartbeat and no
// mcp-heart reply: the inactivity notice would reach it only as recovery's
// Escape. Where the client's post-tool hook can add context to the turn
// (Claude Code, Gemini CLI), the watchdog keeps the notice that stands in
// hook.WordFile, and the hook hands it over once per level and stretch.
// Recovery does not interrupt a visibly busy agent that no word has
// reached yet (interruptFor).

// wordLead introduces the word in the turn.
const wordLead = "A notice from the watchdog, received during your turn:"

// keepWord writes the word for this pulse: the inactivity notice at
// warning or above, while the client's hooks are heard and can tell it and
// nothing holds inactivity (a pause); an empty word once it no longer
// stands.
func (a *agent) keepWord(now time.Time) {
	a.mu.Lock()
	client := a.clientName()
	f, _ := a.result.Finding(checks.Inactivity)
	stands := a.activity.Wired && a.paused == nil && f.Level >= checks.Warning && f.Notice != ""
	prev := a.word
	a.mu.Unlock()
	if !clients.Tells(client) {
		stands = false
	}
	if !stands && prev == "" {
		return
	}
	w := hook.Word{Written: now.UTC()}
	if stands {
		from := now.Add(-f.Elapsed).Round(time.Second)
		w.ID = fmt.Sprintf("%s.%s.%d", checks.Inactivity, f.Level, from.Unix())
		w.Text = ja.T(a.cfg.Language, wordLead) + "\n" + tagged(f)
		w.Expires = now.Add(min(2*a.cfg.Pulse.Interval.D(), hook.WordMaxAge)).UTC()
	}
	b, _ := json.Marshal(w)
	err := a.ws.WriteFile(hook.WordFile, append(b, '\n'))
	a.wroteIn(now, "the hooks' word", hook.WordFile, err)
	if err == nil {
		a.mu.Lock()
		a.word = w.ID
		a.mu.Unlock()
	}
}

// heardTold notes a post-tool event whose hook handed the turn the
// inactivity error's word. Called with a.mu held.
func (a *agent) heardTold(e hook.Event) {
	errWord := hook.ToldPrefix + checks.Inactivity + "." + checks.Error.String() + "."
	if e.Kind == hook.ToolDone && strings.HasPrefix(e.Detail, errWord) && e.Time.After(a.told) {
		a.told = e.Time
	}
}

// holdsEscape reports an agent visibly busy in its client's tools (a call
// within the last two pulses, its turn still open) whose turn the
// inactivity error's word has not reached since the stretch began, where
// its hooks could hand one over: recovery for inactivity does not
// interrupt it (its prompt waits for the turn's end), and says so. The
// decision is taken once per attempt (see stanceLocked): a warned turn that
// keeps busy past the error's word is interrupted at the next attempt,
// and its recovery notice then says stop, as for any interrupted agent.
func (a *agent) holdsEscape() bool {
	now := clock.Or(a.clock).Now()
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.holdsEscapeLocked(now)
}

// holdsEscapeLocked is holdsEscape with a.mu held.
func (a *agent) holdsEscapeLocked(now time.Time) bool {
	return a.gate.recovery().Check == checks.Inactivity && a.stanceLocked(now)
}

// stance is the one decision on how an agent in recovery for inactivity
// is spoken to and handled, for the attempt begun at at: busy (its Escape
// held; every text says "at the next step of your work") or stuck (Escape;
// "stop what you were doing"). The recovery prompt, the inactivity notice
// beside it, the status read in between and the Escape follow it, so none
// tells another story for the same attempt.
type stance struct {
	at   time.Time
	busy bool
}

// stanceLocked is the decision for the current recovery attempt, taken by
// the pulse that made it (keepStance); with no attempt yet, what it would
// be now. Called with a.mu held.
func (a *agent) stanceLocked(now time.Time) bool {
	if rec := a.gate.recovery(); rec.Active && rec.Attempt > 0 && rec.AttemptAt != nil && a.stance.at.Equal(*rec.AttemptAt) {
		return a.stance.busy
	}
	if !clients.Tells(a.clientName()) || !a.busyInTools(now) {
		return false
	}
	f, _ := a.result.Finding(checks.Inactivity)
	return a.told.Before(now.Add(-f.Elapsed))
}

// keepStance keeps, for an attempt begun in this pulse, the decision the
// checks were judged with (busy), for a recovery held by inactivity. It
// reports whether the checks must be judged again: the attempt is for
// another check, so the agent is interrupted and told to stop.
func (a *agent) keepStance(busy bool) (again bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	rec := a.gate.recovery()
	if !rec.Active || rec.Attempt == 0 || rec.AttemptAt == nil || a.stance.at.Equal(*rec.AttemptAt) {
		return false
	}
	a.stance = stance{at: *rec.AttemptAt, busy: busy && rec.Check == checks.Inactivity}
	return a.stance.busy != busy
}

// stanceFor is the checks' input for the decision.
func stanceFor(busy bool) checks.Stance {
	if busy {
		return checks.StanceBusy
	}
	return checks.StanceStuck
}

// busyInTools reports a turn still open with a tool call within the last
// two pulses (30 s at least), as the hooks say. Called with a.mu held.
func (a *agent) busyInTools(now time.Time) bool {
	c := a.activity
	recent := max(2*a.cfg.Pulse.Interval.D(), 30*time.Second)
	return c.Wired && c.InTurn && !c.LastToolAt.IsZero() && now.Sub(c.LastToolAt) <= recent
}

// clientName is the client in the agent's terminal: the config's
// agent.client, else the one its hooks name. Called with a.mu held.
func (a *agent) clientName() string {
	if a.cfg.Agent.Client != "" {
		return a.cfg.Agent.Client
	}
	return a.activity.Client
}
