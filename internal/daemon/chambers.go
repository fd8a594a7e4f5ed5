package daemon

import (
	"context"
	"sort"
	"strings"
	"time"

	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/scan"
	"github.com/ai-heart/ai-heart/internal/schedule"
	"github.com/ai-heart/ai-heart/internal/selfwake"
	"github.com/ai-heart/ai-heart/internal/state"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// scheduleLoop fires the schedule chamber's wakeups. It starts from now, so a
// restart never replays missed wakeups.
func (a *agent) scheduleLoop(ctx context.Context) {
	w, ok := a.plan.Next(a.clock.Now())
	for ok {
		a.setNext(&w)
		timer := time.NewTimer(w.At.Sub(a.clock.Now()))
		select {
		case <-ctx.Done():
			timer.Stop()
			return
		case <-timer.C:
		}
		a.wake(w.Source, w.Prompt) // outside active hours the machine refuses it
		w, ok = a.plan.NextFrom(w.At, a.clock.Now())
	}
	a.setNext(nil)
	<-ctx.Done()
}

// setNext records the next wakeup for the state; it keeps a copy, since the
// loop goes on to overwrite its own variable without the lock.
func (a *agent) setNext(w *schedule.Wakeup) {
	if w != nil {
		c := *w
		w = &c
	}
	a.mu.Lock()
	a.next = w
	a.mu.Unlock()
}

// idleLoop is the idle chamber: every pulse interval it looks at the last
// snapshot; after idle.after with no proof and no wakeup it sends the idle
// prompt, and while idle a new themebox or feedbackbox item wakes the agent
// at once, named in the prompt.
func (a *agent) idleLoop(ctx context.Context) {
	after := a.cfg.Idle.After.D()
	if after <= 0 {
		<-ctx.Done()
		return
	}
	t := time.NewTicker(a.cfg.Pulse.Interval.D())
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		a.idleTick(a.clock.Now(), after)
	}
}

func (a *agent) idleTick(now time.Time, after time.Duration) {
	a.mu.Lock()
	if a.declared(now) {
		// Declared deep work is work: "nothing has happened for a while"
		// would be untrue, and the log it asks for would end the
		// declaration early. What came meanwhile is named after it.
		a.mu.Unlock()
		return
	}
	if v := selfwake.Judge(a.parked, now, a.selfWakeCfg()); v.Hold || v.Missed {
		// Parked on its own background work or scheduled wakeup: the
		// client wakes it, or the pulse delivers the one it missed
		// (selfwake.go).
		a.mu.Unlock()
		return
	}
	last := a.lastActivity()
	idle, _ := a.gate.idleState()
	var fresh []string
	for _, it := range append(append([]scan.InboxItem(nil), a.snap.Themebox...), a.snap.Feedback...) {
		// Urgent feedback has a wakeup of its own (the pulse's): it is
		// not one more item that came while idle.
		if !a.announced[it.Rel] && !it.Interrupt && !a.urgent[it.Rel] {
			fresh = append(fresh, it.Rel)
		}
	}
	// A scheduled wakeup due in a moment wakes the agent anyway: the idle
	// prompt would start a second run just before it. A quarter of
	// idle.after is a moment; further off, the idle wakeup comes (it
	// gave way to every schedule under twice idle.after).
	soon := a.next != nil && a.next.At.Sub(now) < after/4
	due := (idle && len(fresh) > 0) || (!idle && now.Sub(last) >= after && !soon)
	if due {
		// Named now, in this wakeup: idle, what came wakes the agent at
		// once; waiting, the idle wakeup names what came meanwhile (it
		// named nothing, and marked it announced).
		for _, rel := range fresh {
			a.announced[rel] = true
		}
	} else {
		fresh = nil
	}
	if due && !a.cfg.Schedule.Active(now.In(a.loc)) {
		// Outside active hours: counted once per quiet spell; the items
		// stay unannounced, so they are named when the window opens.
		for _, rel := range fresh {
			delete(a.announced, rel)
		}
		if !a.idleHeld {
			a.idleHeld = true
			a.counters.Wakeup(srcIdle, state.OutcomeOutsideHrs)
		}
		a.mu.Unlock()
		return
	}
	a.idleHeld = false
	a.mu.Unlock()
	switch {
	case len(fresh) > 0:
		sort.Strings(fresh)
		a.wake(srcIdle, ja.F(a.cfg.Language, "New while you were idle: %s. Read it and decide what to do (start_theme with themebox_file for a themebox file; check_and_process_item for feedback, then act on it).", strings.Join(fresh, ja.T(a.cfg.Language, ", "))))
	case due:
		a.mu.Lock()
		prompt := a.cfg.Idle.Prompt
		if a.activity.Wired {
			prompt = config.IdlePromptHooked(prompt, a.cfg.Language)
		}
		a.mu.Unlock()
		a.wake(srcIdle, prompt)
	}
}

// declared reports deep work declared and in force at now (a strict
// declaration until its deadline). Call with a.mu held.
func (a *agent) declared(now time.Time) bool {
	for _, d := range a.snap.ActiveDeepWork {
		if d.ParseErr != nil || d.ReadErr != nil {
			continue
		}
		if d.Decl.Mode != workspace.Strict || now.Before(d.Decl.Deadline) {
			return true
		}
	}
	return false
}

// lastActivity is when something last happened: a proof, a wakeup, or the
// watchdog's start. Call with a.mu held.
func (a *agent) lastActivity() time.Time {
	last := a.baseline
	_, lastWakeup := a.gate.idleState()
	// A hooked tool call or turn is activity as much as a proof file.
	for _, t := range []time.Time{a.lastProof, lastWakeup, a.activity.Last} {
		if t.After(last) {
			last = t
		}
	}
	return last
}
