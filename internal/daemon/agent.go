package daemon

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/ai-heart/ai-heart/internal/alert"
	"github.com/ai-heart/ai-heart/internal/budget"
	"github.com/ai-heart/ai-heart/internal/checks"
	"github.com/ai-heart/ai-heart/internal/clock"
	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/delivery"
	"github.com/ai-heart/ai-heart/internal/prompt"
	"github.com/ai-heart/ai-heart/internal/scan"
	"github.com/ai-heart/ai-heart/internal/schedule"
	"github.com/ai-heart/ai-heart/internal/transcript"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// Wakeup sources.
const (
	srcSchedule = "schedule"
	srcIdle     = "idle"
	srcRecovery = "recovery"
	srcFeedback = "feedback" // an urgent (interrupt.) feedback item
)

// agent supervises one agent: its workspace, chambers and wakeup gate.
type agent struct {
	name     string
	cfg      config.AgentConfig
	tz       string
	loc      *time.Location
	ws       *workspace.Workspace
	clock    clock.Clock
	log      zerolog.Logger
	alerts   *alert.Sink
	deliver  delivery.Deliverer
	cap      *budget.DailyCap
	breaker  *budget.Breaker
	plan     *schedule.Plan
	scanner  *scan.Scanner
	started  time.Time // the baseline: nothing older is held against the agent
	onPulse  func(PulseEvent)
	deliverC context.Context // deliveries are cancelled with it on shutdown
	wg       sync.WaitGroup  // deliveries in flight

	pulseMu sync.Mutex // one pulse at a time (the loop, or a test's direct call)

	mu         sync.Mutex // guards everything below
	id         workspace.ID
	snap       scan.Snapshot
	result     checks.Result
	checkState checks.State
	levels     map[string]checks.Level
	rec        Recovery
	inFlight   bool
	flightSrc  string
	flightAt   time.Time
	lastWakeup time.Time
	next       *schedule.Wakeup
	idle       bool            // an idle wakeup was sent and no proof came since
	announced  map[string]bool // inbox items already named in an idle wakeup
	counters   Counters
	pulse      PulseChamber
	lastProof  time.Time
	noted      [2]string // proofs last copied into the latest-proof index
}

// PulseEvent reports one finished pulse (for tests and measurements).
type PulseEvent struct {
	Agent     string
	Scheduled time.Time // when the pulse was due
	Started   time.Time
	Took      time.Duration
	ID        workspace.ID
	Result    checks.Result
}

func newAgent(cfg config.AgentConfig, tz string, loc *time.Location, o Options, started time.Time) (*agent, error) {
	ws, err := workspace.New(cfg.Workspace, loc)
	if err != nil {
		return nil, err
	}
	if fi, err := os.Stat(ws.Root); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("agent %s: workspace %s does not exist (run `watchdog init %s` first)", cfg.DisplayName(), ws.Root, cfg.Workspace)
	}
	if err := ws.EnsureSkeleton(); err != nil {
		return nil, err
	}
	newDeliverer := o.NewDeliverer
	if newDeliverer == nil {
		newDeliverer = delivery.New
	}
	d, err := newDeliverer(cfg.Agent, ws)
	if err != nil {
		return nil, fmt.Errorf("agent %s: %w", cfg.DisplayName(), err)
	}
	// A corrupt cap or breaker file starts fresh and is reported, never fatal.
	dc, err := budget.OpenDailyCap(ws, cfg.DailyCap, loc)
	if errors.Is(err, budget.ErrCorrupt) {
		o.Log.Warn().Err(err).Str("agent", cfg.DisplayName()).Msg("daily cap state unreadable; starting fresh")
	} else if err != nil {
		return nil, fmt.Errorf("agent %s: %w", cfg.DisplayName(), err)
	}
	br, err := budget.OpenBreaker(ws, cfg.CircuitBreaker)
	if errors.Is(err, budget.ErrCorrupt) {
		o.Log.Warn().Err(err).Str("agent", cfg.DisplayName()).Msg("circuit breaker state unreadable; starting fresh")
	} else if err != nil {
		return nil, fmt.Errorf("agent %s: %w", cfg.DisplayName(), err)
	}
	plan, err := schedule.New(cfg.Schedule, loc)
	if err != nil {
		return nil, fmt.Errorf("agent %s: %w", cfg.DisplayName(), err)
	}
	name := cfg.DisplayName()
	log := o.Log.With().Str("agent", name).Logger()
	sc := scan.NewScanner(ws)
	sc.Poll = o.ScanPoll
	sc.Logf = func(format string, args ...any) { log.Warn().Msgf(format, args...) } // full rescans, unwatchable folders
	return &agent{
		name: name, cfg: cfg, tz: tz, loc: loc, ws: ws,
		clock: clock.Or(o.Clock), log: log,
		alerts: o.Alerts, deliver: d, cap: dc, breaker: br, plan: plan,
		scanner: sc, started: started, onPulse: o.OnPulse,
		levels: map[string]checks.Level{}, announced: map[string]bool{},
	}, nil
}

// run drives the agent's chambers until ctx ends, then waits for the pulse
// in flight, cancels deliveries and writes the state a last time.
func (a *agent) run(ctx context.Context, phase time.Duration, pulsed func(*agent)) {
	dctx, cancel := context.WithCancel(context.Background())
	a.deliverC = dctx
	var wg sync.WaitGroup
	wg.Add(4)
	go func() { defer wg.Done(); a.pulseLoop(ctx, phase, pulsed) }()
	go func() { defer wg.Done(); a.sweepLoop(ctx) }()
	go func() { defer wg.Done(); a.scheduleLoop(ctx) }()
	go func() { defer wg.Done(); a.idleLoop(ctx) }()
	wg.Wait()
	cancel()
	a.wg.Wait()
	a.writeState()
	a.scanner.Close()
}

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
	t := time.NewTicker(iv)
	defer t.Stop()
	for {
		// The pulse due now; ticks dropped while a pulse was slow are
		// skipped, not replayed.
		due := begin.Add(time.Since(begin) / iv * iv)
		a.pulseOnce(due)
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

// pulseOnce is one pulse of the pulse chamber. It never calls an LLM and
// never waits for a delivery.
func (a *agent) pulseOnce(scheduled time.Time) {
	a.pulseMu.Lock()
	defer a.pulseMu.Unlock()
	startMono := time.Now()
	now := a.clock.Now()
	id := workspace.NewID(now.In(a.loc))
	log := a.log.With().Str("heartbeat_id", string(id)).Logger()
	var pulseErr error
	if err := a.ws.WriteCurrentID(id); err != nil {
		pulseErr = err
		log.Error().Err(err).Msg("write current heartbeat ID")
	}
	snap, err := a.scanner.Scan()
	if err != nil {
		pulseErr = err
		log.Error().Err(err).Msg("scan workspace")
	}

	a.mu.Lock()
	prevState := a.checkState
	a.mu.Unlock()
	res, st := checks.Evaluate(now, snap, checks.Config{
		Thresholds: a.cfg.Thresholds, Restrictions: a.cfg.Restrictions,
		Baseline: a.started, Loc: a.loc,
	}, prevState)

	urgent := urgentItems(res.Actions)
	for _, err := range checks.Apply(a.ws, res.Actions) {
		log.Warn().Err(err).Msg("apply check action")
	}
	a.noteLatest(snap)

	a.mu.Lock()
	a.id, a.snap, a.result, a.checkState = id, snap, res, st
	if p := snap.NewestProof(); p != nil {
		a.lastProof = p.ModTime
		if a.inFlight && a.flightSrc != srcRecovery && a.deliver.Method() == config.DeliveryTmux &&
			snap.LastLog != nil && snap.LastLog.ModTime.After(a.flightAt) {
			a.inFlight = false // the agent answered the tmux wakeup with a log
		}
		if a.idle && p.ModTime.After(a.lastWakeup) {
			a.idle = false
			a.announced = map[string]bool{}
		}
	}
	changes := a.levelChanges(res)
	rec, stp := nextRecovery(a.rec, res, a.cfg.Recovery, now)
	a.rec = rec
	a.counters.Pulses++
	a.pulse.Count++
	took := time.Since(startMono)
	late := startMono.Sub(scheduled)
	a.pulse.LastTookMS = took.Milliseconds()
	if late.Milliseconds() > a.pulse.MaxLateMS {
		a.pulse.MaxLateMS = late.Milliseconds()
	}
	a.pulse.ScanHealthy = pulseErr == nil
	a.pulse.LastError = ""
	if pulseErr != nil {
		a.pulse.LastError = pulseErr.Error()
	}
	a.mu.Unlock()

	for _, f := range changes {
		a.emit(now, id, f.Level.String(), f.Check, f.Message, f.Elapsed)
	}
	a.recoveryStep(now, id, stp, rec)
	if len(urgent) > 0 {
		a.wakeUrgent(urgent)
	}
	a.writeState()
	ev := log.Info().Str("worst", res.Worst().String()).Dur("took", took)
	if p := snap.NewestProof(); p != nil {
		ev = ev.Str("last_proof", p.Path).Dur("proof_age", now.Sub(p.ModTime).Round(time.Second))
	}
	var notOK []string
	for _, f := range res.Findings {
		if f.Level != checks.OK {
			notOK = append(notOK, f.Check+"="+f.Level.String())
		}
	}
	if len(notOK) > 0 {
		ev = ev.Strs("not_ok", notOK)
	}
	ev.Msg("pulse")
	if a.onPulse != nil {
		a.onPulse(PulseEvent{Agent: a.name, Scheduled: scheduled, Started: startMono, Took: took, ID: id, Result: res})
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

// wakeUrgent interrupts the agent and hands it the urgent feedback items. It
// takes over from a wakeup in flight, as recovery does, and goes through the
// gate like every invocation: it counts toward the daily cap.
func (a *agent) wakeUrgent(items []string) {
	a.mu.Lock()
	a.inFlight = false
	a.mu.Unlock()
	a.wake(srcFeedback, "Urgent feedback: "+strings.Join(items, ", ")+". Read it now, act on it, and rename it processed.<name> when it is handled.")
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

func (a *agent) emit(now time.Time, id workspace.ID, level, check, msg string, elapsed time.Duration) {
	a.mu.Lock()
	a.counters.Alerts++
	a.mu.Unlock()
	if a.alerts != nil {
		a.alerts.Emit(alert.Alert{Time: now, Level: level, Agent: a.name, Check: check, Message: msg, HeartbeatID: string(id), Elapsed: elapsed})
	}
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
		a.log.Warn().Err(err).Msg("update latest-proof index")
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

// recoveryStep carries out a recovery decision: interrupt, chat save and the
// recovery notice; or the alerts that close or abandon recovery.
func (a *agent) recoveryStep(now time.Time, id workspace.ID, stp step, rec Recovery) {
	switch stp {
	case stepAttempt:
		msg := fmt.Sprintf("recovery attempt %d of %d: %s", rec.Attempt, a.cfg.Recovery.MaxAttempts, rec.Reason)
		if a.capSpent(now) {
			// The cap protects a budget: recovery alerts and watches, but
			// does not touch or invoke the agent until the cap resets.
			a.count(func(c *Counters) { c.Dropped++ })
			a.emit(now, id, "warning", "recovery", msg+"; the daily cap is spent, so the agent is not woken (recovery keeps watching)", 0)
			return
		}
		a.emit(now, id, "warning", "recovery", msg, 0)
		if in, ok := a.deliver.(delivery.Interrupter); ok {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			if err := in.Interrupt(ctx); err != nil {
				a.log.Warn().Err(err).Msg("recovery: interrupt")
			}
			name := fmt.Sprintf("HEARTBEAT_%s_%s", workspace.NewID(a.started.In(a.loc)), id)
			if err := in.SaveChat(ctx, name); err != nil {
				a.log.Warn().Err(err).Msg("recovery: save chat")
			}
			cancel()
		}
		a.mu.Lock()
		a.inFlight = false // recovery takes over from a wakeup that got no answer
		a.mu.Unlock()
		a.wake(srcRecovery, "")
	case stepRecovered:
		a.emit(now, id, "ok", "recovery", "all checks are ok again; recovery finished", 0)
	case stepGaveUp:
		a.emit(now, id, "error", "gave_up", fmt.Sprintf("recovery failed %d times (%s); the watchdog stops waking the agent, pulse and status go on", a.cfg.Recovery.MaxAttempts, rec.Reason), 0)
	}
}

// notices are the paragraphs every heartbeat carries: the recovery notice
// and what each non-ok check tells the agent. Call with a.mu held.
func (a *agent) notices() []string {
	var out []string
	if a.rec.Active {
		out = append(out, recoveryNotice(a.rec, a.cfg.Recovery.MaxAttempts))
	}
	for _, f := range a.result.Findings {
		if f.Level != checks.OK && f.Notice != "" {
			out = append(out, f.Notice)
		}
	}
	return out
}

// wake asks for a wakeup from a chamber. It never blocks: the delivery runs
// on its own goroutine; one already in flight coalesces this one.
func (a *agent) wake(source, text string) {
	a.mu.Lock()
	if a.rec.GaveUp {
		a.counters.Skipped++
		a.mu.Unlock()
		return
	}
	if a.inFlight {
		a.counters.Coalesced++
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
		a.count(func(c *Counters) { c.Skipped++ })
		return
	}
	// Every invocation counts: schedule, idle, recovery and urgent feedback.
	ok, first, err := a.cap.Take(now)
	if err != nil {
		a.log.Warn().Err(err).Msg("daily cap")
	}
	if !ok {
		a.count(func(c *Counters) { c.Dropped++ })
		a.log.Info().Str("source", source).Msg("wakeup dropped: daily cap reached")
		if first {
			st := a.cap.State(now)
			a.emit(now, a.currentID(), "warning", "daily_cap", fmt.Sprintf("daily cap of %d wakeups reached for %s; further wakeups today are dropped, recovery included", st.Limit, st.Day), 0)
		}
		return
	}
	ok, probe := a.breaker.Allow(now)
	if !ok {
		a.count(func(c *Counters) { c.Skipped++ })
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

	res, err := a.deliver.Deliver(a.deliverC, text)
	end := a.clock.Now()
	if errors.Is(err, context.Canceled) && a.deliverC.Err() != nil {
		return // shutting down: not the agent's failure
	}
	changed, rerr := a.breaker.Record(end, err == nil)
	if rerr != nil {
		a.log.Warn().Err(rerr).Msg("circuit breaker state")
	}
	if changed {
		st := a.breaker.State(end)
		level, msg := "ok", "delivery works again; circuit breaker closed"
		if st.State != budget.Closed {
			level, msg = "warning", fmt.Sprintf("circuit breaker %s after %d delivery failures; wakeups paused for %s", st.State, st.Failures, st.CooldownLeft.Round(time.Second))
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
		a.count(func(c *Counters) { c.DeliveryFailures++ })
		a.log.Warn().Err(err).Str("source", source).Bool("probe", probe).Msg("delivery failed")
		entry.Error = err.Error()
	} else {
		a.count(func(c *Counters) { c.Delivered++ })
		a.log.Info().Str("source", source).Str("heartbeat_id", string(id)).Str("delivery", a.deliver.Method()).Msg("agent woken")
		keepFlight = a.deliver.Method() == config.DeliveryTmux
	}
	if a.deliver.Method() != config.DeliveryExec {
		return
	}
	if err == nil && transcript.IsGhost(res.Reply) {
		a.count(func(c *Counters) { c.Ghosts++ })
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

func (a *agent) count(f func(*Counters)) {
	a.mu.Lock()
	f(&a.counters)
	a.mu.Unlock()
}

func (a *agent) currentID() workspace.ID {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.id
}

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
		a.wake(w.Source, w.Prompt)
		w, ok = a.plan.NextFrom(w.At, a.clock.Now())
	}
	a.setNext(nil)
	<-ctx.Done()
}

func (a *agent) setNext(w *schedule.Wakeup) {
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
	last := a.lastActivity()
	idle := a.idle
	var fresh []string
	if idle {
		for _, it := range append(append([]scan.InboxItem(nil), a.snap.Themebox...), a.snap.Feedback...) {
			if !a.announced[it.Rel] {
				a.announced[it.Rel] = true
				fresh = append(fresh, it.Rel)
			}
		}
	}
	a.mu.Unlock()
	switch {
	case len(fresh) > 0:
		sort.Strings(fresh)
		a.wake(srcIdle, "New while you were idle: "+strings.Join(fresh, ", ")+". Read it and decide what to do (start_theme for a themebox file; handle feedback and rename it processed.<name>).")
	case !idle && now.Sub(last) >= after:
		a.mu.Lock()
		for _, it := range append(append([]scan.InboxItem(nil), a.snap.Themebox...), a.snap.Feedback...) {
			a.announced[it.Rel] = true // the idle prompt is sent now; only newer items re-wake
		}
		a.mu.Unlock()
		a.wake(srcIdle, a.cfg.Idle.Prompt)
	}
}

// lastActivity is when something last happened: a proof, a wakeup, or the
// watchdog's start. Call with a.mu held.
func (a *agent) lastActivity() time.Time {
	last := a.started
	for _, t := range []time.Time{a.lastProof, a.lastWakeup} {
		if t.After(last) {
			last = t
		}
	}
	return last
}

// stateNow assembles the state file content.
func (a *agent) stateNow() State {
	now := a.clock.Now()
	a.mu.Lock()
	defer a.mu.Unlock()
	s := State{
		Version: 1, Agent: a.name, PID: os.Getpid(), StartedAt: a.started, PulseAt: now,
		PulseInterval: a.cfg.Pulse.Interval, HeartbeatID: a.id, Timezone: a.tz,
		Thresholds: a.cfg.Thresholds, Delivery: a.deliver.Method(),
		Checks: map[string]CheckState{}, LastLog: a.snap.LastLog, LastIntro: a.snap.LastIntrospection,
		LastCheck: a.snap.LastCheckpoint, LastProof: a.snap.NewestProof(), Recovery: a.rec,
		DeepWork: []DeepWork{}, Counters: a.counters,
		DailyCap: a.cap.State(now), Breaker: a.breaker.State(now),
		Notices: append([]string{}, a.notices()...),
	}
	for _, f := range a.result.Findings {
		s.Checks[f.Check] = CheckState{Level: f.Level.String(), Message: f.Message}
	}
	for _, d := range a.snap.ActiveDeepWork {
		dw := DeepWork{ID: d.ID, Mode: d.Mode, Activity: d.Activity}
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
	sc.InFlight, sc.Stopped = a.inFlight, a.rec.GaveUp
	if a.inFlight {
		t := a.flightAt
		sc.InFlightSource, sc.InFlightSince = a.flightSrc, &t
	}
	if !a.lastWakeup.IsZero() {
		t := a.lastWakeup
		sc.LastWakeup = &t
	}
	s.Chambers.Idle = IdleChamber{After: a.cfg.Idle.After, Idle: a.idle}
	if after := a.cfg.Idle.After.D(); after > 0 && !a.idle {
		t := a.lastActivity().Add(after)
		s.Chambers.Idle.WakeAt = &t
	}
	return s
}

func (a *agent) writeState() {
	if err := writeState(a.ws, a.stateNow()); err != nil {
		a.log.Error().Err(err).Msg("write state")
	}
}
