package daemon

import (
	"os"

	"github.com/ai-heart/ai-heart/internal/state"
)

// stateNow assembles the state file content.
func (a *agent) stateNow() state.State {
	now := a.clock.Now()
	a.mu.Lock()
	defer a.mu.Unlock()
	rec := a.gate.recovery()
	s := state.State{
		Version: 1, Agent: a.name, PID: os.Getpid(), StartedAt: a.started, PulseAt: now,
		PulseInterval: a.cfg.Pulse.Interval, HeartbeatID: a.id, Timezone: a.tz, Language: a.cfg.Language,
		Thresholds: a.cfg.Thresholds, Restrictions: a.cfg.Restrictions, Delivery: a.deliver.Method(),
		Checks: map[string]state.CheckState{}, LastLog: a.snap.LastLog, LastIntro: a.snap.LastIntrospection,
		LastCheck: a.snap.LastCheckpoint, LastProof: a.snap.NewestProof(), Recovery: rec,
		DeepWork: []state.DeepWork{}, Counters: a.counters.Clone(),
		DailyCap: a.gate.cap.State(now), Breaker: a.gate.breaker.State(now),
		Notices:  append([]string{}, a.notices()...),
		Work:     a.workState(),
		Client:   a.clientState(now),
		Theme:    a.themeState(),
		Channels: channelTimes(a.channelsNow()),
	}
	_, s.Progress = a.progressNow()
	s.Asks = a.asksState(now)
	sum := a.ledger.Summary(now)
	b := a.ledger.Budget(now, a.cfg.Budget)
	if a.fleet != nil && !b.Spent {
		if f := a.fleet.use(now); a.fleet.b.On() && f.Spent {
			b.Spent, b.Reason = true, f.Reason // the fleet's budget drops this agent's wakeups too
		}
	}
	sum.Budget = &b
	s.Cost = &sum
	if a.paused != nil {
		p := *a.paused
		s.Pause = &p
	}
	for _, f := range a.result.Findings {
		s.Checks[f.Check] = state.CheckState{Level: f.Level.String(), Message: f.Message}
	}
	for _, f := range a.snap.ActiveDeepWork {
		d := f.Decl
		dw := state.DeepWork{ID: d.ID, Mode: d.Mode, Activity: d.Activity}
		if !d.Deadline.IsZero() {
			t := d.Deadline
			dw.Deadline = &t
		}
		s.DeepWork = append(s.DeepWork, dw)
	}
	s.Chambers.Pulse = a.pulse
	sc := &s.Chambers.Schedule
	if a.next != nil {
		t := a.next.At
		sc.NextWakeup, sc.NextSource = &t, a.next.Source
	}
	src, since, inFlight := a.gate.inFlight()
	sc.InFlight, sc.Stopped = inFlight, rec.GaveUp
	sc.OutsideActiveHours = !a.cfg.Schedule.Active(now.In(a.loc))
	if inFlight {
		sc.InFlightSource, sc.InFlightSince = src, &since
	}
	idle, lastWakeup := a.gate.idleState()
	if !lastWakeup.IsZero() {
		sc.LastWakeup = &lastWakeup
	}
	s.Chambers.Idle = state.IdleChamber{After: a.cfg.Idle.After, Idle: idle}
	if after := a.cfg.Idle.After.D(); after > 0 && !idle {
		t := a.lastActivity().Add(after)
		s.Chambers.Idle.WakeAt = &t
	}
	if t, why := a.gate.held(); t.After(now) {
		sc.HeldUntil, sc.HeldFor = &t, why
	}
	a.limitState(now, sc)
	// A wakeup the gate would drop is not announced: the page and status
	// say why none comes instead.
	if sc.Blocked = state.Blocking(s, now, a.loc); sc.Blocked != nil {
		sc.NextWakeup, sc.NextSource = nil, ""
		s.Chambers.Idle.WakeAt = nil
	}
	return s
}

// noteWork writes the last pulse's state again with the work as it is now,
// when a delivery starts or ends it: mcp-heart reads working or waiting
// from the file, and a pulse can be a minute away. The pulse's time stays,
// since the notices are that pulse's. Before the first pulse there is
// nothing to amend.
func (a *agent) noteWork() {
	a.writing.Lock()
	defer a.writing.Unlock()
	a.mu.Lock()
	if a.last.Version == 0 {
		a.mu.Unlock()
		return
	}
	st := a.last
	st.Work = a.workState()
	// Whether a run is in flight changes with the work: the status reads it.
	sc := &st.Chambers.Schedule
	src, since, inFlight := a.gate.inFlight()
	sc.InFlight, sc.InFlightSource, sc.InFlightSince = inFlight, "", nil
	if inFlight {
		sc.InFlightSource, sc.InFlightSince = src, &since
	}
	a.last = st
	a.mu.Unlock()
	a.wrote(a.clock.Now(), "state file", a.saveState(st))
}

// writeState writes the state a stopping watchdog leaves, durably.
func (a *agent) writeState() {
	a.writing.Lock()
	defer a.writing.Unlock()
	a.synced = adopted{}
	a.wrote(a.clock.Now(), "state file", a.saveState(a.stateNow()))
}

// workState is working versus waiting as the checks judge it (a turn the
// hooks saw counts as working), with what they count from. Called with
// a.mu held.
func (a *agent) workState() state.Work {
	work := a.gate.work()
	s := work.State()
	if w := a.clientWork(work.Checks(), work.Answered()); w.Working && s.Mode == state.WorkWaiting {
		t := w.Since
		s.Mode, s.Since = state.WorkWorking, &t
	}
	if !a.baseline.IsZero() {
		t := a.baseline
		s.Baseline = &t
	}
	if t := a.checkState.StrictEnded; !t.IsZero() {
		s.StrictEnded = &t
	}
	return s
}
