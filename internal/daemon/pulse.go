package daemon

import (
	"context"
	"time"

	"github.com/rs/zerolog"

	"github.com/ai-heart/ai-heart/internal/alert"
	"github.com/ai-heart/ai-heart/internal/checks"
	"github.com/ai-heart/ai-heart/internal/day"
	"github.com/ai-heart/ai-heart/internal/scan"
	"github.com/ai-heart/ai-heart/internal/wakeup"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// pulseLoop runs a pulse after phase and then every interval, timed by the
// monotonic clock (a wall-clock jump neither fires nor skips a pulse). The
// phase spreads a fleet's pulses over the interval instead of a burst.
func (a *agent) pulseLoop(ctx context.Context, phase time.Duration, pulsed func(*agent)) {
	iv := a.cfg.Pulse.Interval.D()
	if phase > 0 {
		t := time.NewTimer(phase)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
	}
	begin := time.Now()
	expected := begin
	t := time.NewTicker(iv)
	defer t.Stop()
	for {
		// Ticks dropped while a pulse was slow are skipped, not replayed;
		// but lateness is measured from the first pulse that did not come,
		// so an 18 s pulse shows as 17 s late, not as the time since the
		// last tick.
		due := begin.Add(time.Since(begin) / iv * iv)
		a.pulseOnce(expected)
		expected = due.Add(iv)
		if pulsed != nil {
			pulsed(a)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// nextPulseIn is how long until a pulse is due after the last one the
// adopted state says was written (0: now).
func (a *agent) nextPulseIn() time.Duration {
	a.mu.Lock()
	last := a.last.PulseAt
	a.mu.Unlock()
	if last.IsZero() {
		return 0
	}
	return max(0, last.Add(a.cfg.Pulse.Interval.D()).Sub(a.clock.Now()))
}

// pulseOnce is one pulse of the pulse chamber, in the order its steps
// happen. It never calls an LLM and never waits for a delivery.
func (a *agent) pulseOnce(scheduled time.Time) {
	a.pulseMu.Lock()
	defer a.pulseMu.Unlock()
	b := &beat{scheduled: scheduled, startMono: time.Now(), now: a.clock.Now()}
	a.mint(b)
	a.readPause(b)
	a.scan(b)
	a.minted(b)
	a.readHooks(b)
	a.seeAsk()
	a.evaluate(b)
	a.apply(b)
	a.record(b)
	a.alert(b)
	a.recover(b)
	a.keepWord(b.now)
	a.persist(b)
	a.mu.Lock()
	close(a.pulsed) // a scheduled wakeup waiting for this pulse composes now
	a.pulsed = make(chan struct{})
	a.mu.Unlock()
}

// beat is what one pulse learns as it goes.
type beat struct {
	scheduled, startMono, now time.Time
	id                        workspace.ID
	idErr                     error // the ID's write
	log                       zerolog.Logger
	err                       error // the failure to scan, else to write the ID
	snap                      scan.Snapshot
	res                       checks.Result
	checkState                checks.State
	checksIn                  checks.Config // what res was judged with, and the state before it
	checksPrev                checks.State
	urgent                    []string // feedback items that lose their interrupt. prefix
	changes                   []checks.Finding
	resumedAt                 time.Time // the operator's last resume
	took                      time.Duration
	paused                    bool
}

// mint writes this pulse's heartbeat ID, and minted reports its failure
// after the scan's, which comes first. The write is a few system calls
// into a file kept open (workspace.WritePulseFile): a goroutine of its own
// beside the scan cost more in waking threads than it saved.
func (a *agent) mint(b *beat) {
	b.id = workspace.NewID(b.now.In(a.loc))
	b.log = a.log.With().Str("heartbeat_id", string(b.id)).Logger()
	b.idErr = a.ws.WriteCurrentID(b.id)
}

func (a *agent) minted(b *beat) {
	if err := b.idErr; err != nil {
		if b.err == nil {
			b.err = err
		}
		a.wroteIn(b.now, "heartbeat ID", workspace.CurrentIDFile, err)
	}
}

// scan takes the workspace's snapshot.
func (a *agent) scan(b *beat) {
	snap, err := a.scanner.Scan()
	if err != nil {
		b.err = err
		b.log.Error().Err(err).Msg("scan workspace")
	}
	b.snap = snap
	// The inotify limit never leaves a blind spot: the scanner lists the
	// workspace every pulse instead, and the operator hears of it once.
	if why := a.scanner.Fallback(); why != "" {
		a.mu.Lock()
		first := a.pulse.ScanFallback == ""
		a.pulse.ScanFallback = why
		a.mu.Unlock()
		if first {
			a.emit(b.now, b.id, checks.Warning, "scan",
				"inotify limit reached, so the workspace is listed every pulse instead of followed (nothing is missed; each pulse costs more): "+why, 0)
		}
	}
}

// evaluate runs the pure checks on the snapshot.
func (a *agent) evaluate(b *beat) {
	a.mu.Lock()
	prev := a.checkState
	saw := pulseSaw(b)
	// A person being asked holds the working time off only within the
	// hooks' bound (the last pulse's judgement: the ask line is the
	// agent's to write).
	saw.Asking = a.activity.Asking && !a.result.AskPast
	a.woke(a.gate.step(b.now, saw))
	gw := a.gate.work()
	work := a.clientWork(gw.Checks(), gw.Answered())
	work.HeldUntil, work.HeldFor = a.gate.held()
	work.RetryUntil = a.retryUntil(b.now)
	baseline := a.baseline
	urgent := a.urgentWaiting(b.snap)
	client := a.activity
	refusals := a.refusalsNow()
	channels := a.channelsNow()
	off, asked := a.recoveryOff(), a.recoveryAsked(b.snap.RecentLogs)
	prog, _ := a.progressNow()
	name := a.clientName()
	busy := a.stanceLocked(b.now)
	a.mu.Unlock()
	b.checksIn, b.checksPrev = checks.Config{
		Thresholds: a.cfg.Thresholds, Restrictions: a.cfg.Restrictions,
		Baseline: baseline, BaselinePause: baseline.After(a.started), Paused: b.paused, Loc: a.loc, Work: work, Language: a.cfg.Language,
		Client: client, Refusals: refusals, Channels: channels, Urgent: urgent, RecoveryOff: off, RecoveryAsked: asked,
		Progress: prog, Stance: stanceFor(busy),
		HooksOff: a.hooksOff(name),
	}, prev
	b.res, b.checkState = checks.Evaluate(b.now, b.snap, b.checksIn, prev)
}

// recoveryOff reports whether no recovery notice stands to follow: given
// up, waiting, or the give-up's owed notice in its place.
func (a *agent) recoveryOff() bool {
	rec := a.gate.recovery()
	// Told: the attempt that came back with the give-up's notice, which
	// asks for the recovery log itself in place of a RECOVERY paragraph.
	return rec.GaveUp || rec.Owed != nil || rec.Told != nil || (rec.Active && rec.Attempt == 0 && (rec.Asking || rec.Held != ""))
}

// pulseSaw is what the pulse tells the wakeup machine: the working
// stretch's clock (paused: none of this time is work; deep work and a
// person being asked: none of it owes introspection), the proof that ends
// idleness, the log that answers a held wakeup.
func pulseSaw(b *beat) wakeup.Pulse {
	p := wakeup.Pulse{Now: b.now, Paused: b.paused, DeepWork: len(b.snap.ActiveDeepWork) > 0}
	if l := b.snap.LastLog; l != nil {
		p.LastLog = l.ModTime
	}
	if in := b.snap.LastIntrospection; in != nil {
		p.LastIntrospection = in.ModTime
	}
	if pr := b.snap.NewestProof(); pr != nil {
		p.NewestProof = pr.ModTime
	}
	return p
}

// apply carries out the checks' renames and copies new proofs into the
// latest-proof index.
func (a *agent) apply(b *beat) {
	b.urgent = urgentItems(b.res.Actions)
	a.mu.Lock()
	for _, rel := range b.urgent {
		a.urgent[rel] = true
	}
	a.mu.Unlock()
	for _, err := range applyActions(a.ws, b.res.Actions) {
		b.log.Warn().Err(err).Msg("apply check action")
	}
	a.noteLatest(b.snap)
}

// record folds the pulse into the agent's state: what it saw, whether the
// agent answered a wakeup, the level changes to alert on and the pulse's
// own timing.
func (a *agent) record(b *beat) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.id, a.snap, a.result, a.checkState = b.id, b.snap, b.res, b.checkState
	if p := b.snap.NewestProof(); p != nil {
		a.lastProof = p.ModTime
	}
	a.holdNotices(b.now, b.snap, b.res)
	b.changes = a.levelChanges(b.res)
	a.counters.Pulses++
	a.pulse.Count++
	b.took = time.Since(b.startMono)
	a.pulse.LastTookMS = b.took.Milliseconds()
	if late := b.startMono.Sub(b.scheduled); late.Milliseconds() > a.pulse.MaxLateMS {
		a.pulse.MaxLateMS = late.Milliseconds()
	}
	a.pulse.ScanHealthy = b.err == nil
	a.pulse.LastError = ""
	if b.err != nil {
		a.pulse.LastError = b.err.Error()
	}
}

// alert emits one alert per check whose level changed.
func (a *agent) alert(b *beat) {
	for _, f := range b.changes {
		a.emit(b.now, b.id, f.Level, f.Check, f.Message, f.Elapsed)
	}
}

// recover steps the machine with the pulse's verdict for recovery and
// carries out what it decided, then hands urgent feedback to the agent.
func (a *agent) recover(b *beat) {
	a.mu.Lock()
	// Past the hooks' bound an ask holds recovery off no longer: the keys
	// still wait for the pane's look (no dialog), so nothing is typed
	// into a real one.
	v := wakeup.Beat{Findings: b.res.Findings, Asking: a.activity.Asking && !b.res.AskPast, ResumedAt: b.resumedAt, Paused: b.paused}
	a.mu.Unlock()
	v.Facts = a.gate.facts(b.now, 0, 0)
	effs, rec := a.gate.beat(b.now, v, func(ctx context.Context, n int) { a.fly(ctx, n, srcRecovery, "") })
	if b.paused {
		a.recoveryStep(b.now, b.id, effs, rec) // a give-up the pause ended is said
		return                                 // a paused agent is not touched; recovery resumes with it
	}
	a.carry(b.now, effs)
	a.recoveryStep(b.now, b.id, effs, rec)
	asked := a.recoveryAsked(b.snap.RecentLogs)
	again := a.keepStance(b.checksIn.Stance == checks.StanceBusy)
	if (!b.checksIn.RecoveryOff && a.recoveryOff()) || asked != b.checksIn.RecoveryAsked || again {
		// Recovery gave up or began to wait in this very pulse: the
		// notices the agent reads say so now, not one pulse late
		// ("starts recovery" or "the recovery notice says what to do" beside a
		// give-up). The checks are pure: judged again, only the words
		// change.
		in := b.checksIn
		in.RecoveryOff = in.RecoveryOff || a.recoveryOff()
		in.RecoveryAsked = asked // a give-up that ended in this pulse owes its notice now
		in.Stance = stanceFor(!again && in.Stance == checks.StanceBusy)
		res, _ := checks.Evaluate(b.now, b.snap, in, b.checksPrev)
		a.mu.Lock()
		a.result = res
		a.mu.Unlock()
	}
	if len(b.urgent) > 0 {
		a.wakeUrgent(b.urgent)
	}
}

// persist writes the state file, logs the pulse line and reports the pulse.
func (a *agent) persist(b *beat) {
	st := a.stateNow()
	a.writing.Lock()
	a.mu.Lock()
	st.Work = a.workState() // a delivery may have noted work since stateNow
	a.last = st
	a.mu.Unlock()
	serr := a.saveState(st)
	a.writing.Unlock()
	a.wrote(b.now, "state file", serr)
	a.wrote(b.now, "day strip", a.day.Mode(b.now, day.ModeOf(st)))
	a.settleWrites(b.now)
	ev := b.log.Info().Str("worst", b.res.Worst().String()).Dur("took", b.took)
	if p := b.snap.NewestProof(); p != nil {
		ev = ev.Str("last_proof", p.Path).Dur("proof_age", b.now.Sub(p.ModTime).Round(time.Second))
	}
	var notOK []string
	for _, f := range b.res.Findings {
		if f.Level != checks.OK {
			notOK = append(notOK, f.Check+"="+f.Level.String())
		}
	}
	if len(notOK) > 0 {
		ev = ev.Strs("not_ok", notOK)
	}
	ev.Msg("pulse")
	if a.onPulse != nil {
		a.onPulse(PulseEvent{Agent: a.name, Scheduled: b.scheduled, Started: b.startMono, Took: b.took, ID: b.id, Result: b.res, State: st})
	}
}

// urgentItems are the feedback items whose interrupt. prefix this pulse
// strips, by their new names.
func urgentItems(actions []checks.Action) []string {
	var out []string
	for _, x := range actions {
		if x.Kind == checks.StripInterrupt {
			out = append(out, x.NewRel)
		}
	}
	return out
}

// urgentWaiting lists the feedback handed over as urgent that still waits
// in snap, and forgets the rest (taken). Under inbox delivery a later
// wakeup replaces the urgent one's prompt: the notice keeps the mark. Call
// with a.mu held.
func (a *agent) urgentWaiting(snap scan.Snapshot) []string {
	var out []string
	waiting := map[string]bool{}
	for _, it := range snap.Feedback {
		waiting[it.Rel] = true
	}
	for rel := range a.urgent {
		if !waiting[rel] {
			delete(a.urgent, rel)
			continue
		}
		out = append(out, rel)
	}
	return out
}

// levelChanges returns the findings whose level differs from the last
// pulse's; a first pulse reports only what is not ok.
func (a *agent) levelChanges(res checks.Result) []checks.Finding {
	var out []checks.Finding
	for _, f := range res.Findings {
		prev, seen := a.levels[f.Check]
		if (seen && prev != f.Level) || (!seen && f.Level != checks.OK) {
			out = append(out, f)
		}
		a.levels[f.Check] = f.Level
	}
	return out
}

func (a *agent) emit(now time.Time, id workspace.ID, level checks.Level, check, msg string, elapsed time.Duration) {
	a.mu.Lock()
	a.counters.Alerts++
	a.mu.Unlock()
	if a.alerts != nil {
		a.alerts.Emit(alert.Alert{Time: now, Level: level, Agent: a.name, Check: check, Message: msg, HeartbeatID: string(id), Elapsed: elapsed})
	}
	a.wrote(now, "day strip", a.day.Add(day.Mark{Time: now, Kind: day.KindAlert, Level: level.String(), Check: check, Message: msg}))
}

// noteLatest copies proofs that other writers made (hand-written logs) into
// the latest-proof index, so tools see them too. It writes only on change.
func (a *agent) noteLatest(snap scan.Snapshot) {
	key := [2]string{proofKey(snap.LastLog), proofKey(snap.LastCheckpoint)}
	if key == a.noted || (snap.LastLog == nil && snap.LastCheckpoint == nil) {
		return
	}
	err := a.ws.NoteLatest(func(l *workspace.Latest) {
		if snap.LastLog != nil {
			l.NoteLog(*snap.LastLog)
		}
		if snap.LastIntrospection != nil {
			l.NoteLog(*snap.LastIntrospection)
		}
		if snap.LastCheckpoint != nil {
			l.NoteCheckpoint(*snap.LastCheckpoint)
		}
	})
	if err != nil {
		a.wrote(a.clock.Now(), "latest-proof index", err)
		return
	}
	a.noted = key
}

func proofKey(p *workspace.Proof) string {
	if p == nil {
		return ""
	}
	return p.Path + "@" + p.ModTime.String()
}
