package daemon

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rs/zerolog"

	"github.com/ai-heart/ai-heart/internal/alert"
	"github.com/ai-heart/ai-heart/internal/asks"
	"github.com/ai-heart/ai-heart/internal/checks"
	"github.com/ai-heart/ai-heart/internal/clock"
	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/cost"
	"github.com/ai-heart/ai-heart/internal/day"
	"github.com/ai-heart/ai-heart/internal/delivery"
	"github.com/ai-heart/ai-heart/internal/hook"
	"github.com/ai-heart/ai-heart/internal/pause"
	"github.com/ai-heart/ai-heart/internal/recovery"
	"github.com/ai-heart/ai-heart/internal/scan"
	"github.com/ai-heart/ai-heart/internal/schedule"
	"github.com/ai-heart/ai-heart/internal/state"
	"github.com/ai-heart/ai-heart/internal/wakeup"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// Wakeup sources.
const (
	srcSchedule = "schedule"
	srcIdle     = "idle"
	srcRecovery = "recovery"
	srcFeedback = "feedback" // an urgent (interrupt.) feedback item
)

// agent supervises one agent: its workspace, chambers and wakeup gate. Its
// state is grouped by idea: what it was given at the start, and under mu
// what the pulses saw, the wakeups' life, the pause, and what the client
// said.
type agent struct {
	agentWiring // fixed once built

	pulseMu sync.Mutex    // one pulse at a time (the loop, or a test's direct call)
	pulsed  chan struct{} // closed (and replaced) as each pulse ends; under mu

	mu sync.Mutex // guards the memories below
	pulseMemory
	wakeMemory
	pauseMemory
	clientMemory
	workMemory
	writes writeHealth // the watchdog's own writes failing (a full disk)
	// writing orders the state file's writers (the pulse, and a delivery
	// noting the work), so an older state never lands over a newer one.
	writing sync.Mutex
	synced  adopted // what the last durable state write held; under writing

	// reloaded: this agent replaces one of the same workspace (a config
	// reload), which never stopped; handover: this one is being replaced.
	// Neither start nor stop is a "stopped" mark on the day strip then.
	reloaded bool
	handover atomic.Bool

	// desk is the client's questions offered to a person afar (nil when
	// none are): set when built, or taken over from the agent a reload
	// replaces, before this one runs.
	desk *desk

	bg sync.WaitGroup // work beside the pulse (a turn's usage); waited for at the end
	// seeing: a look at the screen for a person's dialog is under way.
	seeing atomic.Bool
	// stateNotes are what the operator hears once, on the first pulse,
	// about the state folder (old state in the workspace, a lost ledger).
	stateNotes []string
}

// agentWiring is what an agent is given when it is built, never changed.
type agentWiring struct {
	name    string
	cfg     config.AgentConfig
	tz      string
	loc     *time.Location
	ws      *workspace.Workspace
	dir     string // the agent's state folder (config state_dir): the watchdog's own files
	clock   clock.Clock
	log     zerolog.Logger
	alerts  *alert.Sink
	deliver delivery.Deliverer
	gate    *gate // every wakeup goes through it
	ledger  *cost.Ledger
	plan    *schedule.Plan
	scanner *scan.Scanner
	started time.Time // when the watchdog started
	onPulse func(PulseEvent)
	fleet   *fleetBudget  // fleet_budget, shared by the config's agents; nil when off
	day     *day.Recorder // the day strip's marks (in dir)
	hooks   *hook.Tail    // the client's hooks' spool; read by the pulse alone
	onAsk   func(asks.Change)
}

// pulseMemory is what the pulses saw and what the last one wrote. Under
// agent.mu.
type pulseMemory struct {
	id         workspace.ID
	snap       scan.Snapshot
	result     checks.Result
	checkState checks.State
	levels     map[string]checks.Level // each check's last level, for the alerts on change
	lastProof  time.Time
	last       state.State // the state the last pulse wrote
	counters   state.Counters
	pulse      state.PulseChamber
	noted      [2]string // proofs last copied into the latest-proof index
	// themeName caches the start record's name (themeState).
	themeName struct{ record, name string }
}

// wakeMemory is what the chambers keep beside the wakeup machine (which
// holds recovery): the next scheduled wakeup, the idle chamber's
// announcements and the notices still owed. Under agent.mu.
type wakeMemory struct {
	next      *schedule.Wakeup
	idleHeld  bool            // an idle wakeup is held back by active hours (counted once)
	announced map[string]bool // inbox items already named in an idle wakeup
	urgent    map[string]bool // feedback handed over as urgent, by its name without interrupt., until taken
	// urgentAsked are the items of the last urgent wakeup asked for: its
	// text names those still waiting once it may go in.
	urgentAsked []string
	held        map[string]heldNotice // event notices not yet carried, by check
	// gateClosed: the budget gate was last written closed.
	gateClosed bool
	// word is the ID of the word last kept for the client's post-tool hook
	// ("" when none stands), and told when the hook last handed a word to
	// the running turn.
	word string
	told time.Time
	// stance is the decision on how the current recovery attempt speaks
	// to the agent (see stanceLocked).
	stance stance
	// tmuxRefused is why the watchdog last refused the pane's tmux socket,
	// alerted once; "" since a wakeup went in.
	tmuxRefused string
}

// pauseMemory is the operator's pause as the pulses read it. Under agent.mu.
type pauseMemory struct {
	baseline   time.Time    // nothing older is held against the agent: the start, or the end of a pause
	paused     *pause.Pause // the pause in force, read each pulse
	pauseErr   string       // the pause file's last read error, said once
	legacySeen bool         // the workspace's old stats/pause.json was reported
}

// clientMemory is what the client said through its channels. Under
// agent.mu.
type clientMemory struct {
	hookErr  string        // the spool's last read error, logged once
	activity hook.Activity // what the hooks said so far
	heard    heard         // what the other channels said, and when
	tele     teleBook      // the telemetry's usage until a run takes it
	execRun  string        // the exec run in flight, as its telemetry is tagged
	session  string        // the client's session, as the newest hook event named it
	// teleOverflowed: the telemetry book overflowed since the start (alerted once).
	teleOverflowed bool
	refusals       checks.Refusals // what the client refused in the last exec run (stream-json)
	// serviceAlerted: a service failure was alerted and no run succeeded since.
	serviceAlerted bool
	limitMemory
	selfWakeMemory
	resumeMemory
	settings settingsMemory
}

// PulseEvent reports one finished pulse (for tests and measurements).
type PulseEvent struct {
	Agent     string
	Scheduled time.Time // when the pulse was due
	Started   time.Time
	Took      time.Duration
	ID        workspace.ID
	Result    checks.Result
	State     state.State // the state file this pulse wrote
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
	// The heartbeat ID and the published state are written into two files
	// kept open and exchanged with the name, not made anew at every pulse.
	ws.KeepPulseFiles()
	newDeliverer := o.NewDeliverer
	if newDeliverer == nil {
		newDeliverer = delivery.New
	}
	d, err := newDeliverer(cfg.Agent, ws)
	if err != nil {
		return nil, fmt.Errorf("agent %s: %w", cfg.DisplayName(), err)
	}
	g, err := openGuards(cfg, ws, loc, clock.Or(o.Clock).Now(), o.Log)
	if err != nil {
		return nil, err
	}
	if e, ok := d.(*delivery.Exec); ok {
		e.MaxTokens = cfg.Budget.PerWakeupTokens
		if dir := cfg.StateDir(); dir != "" {
			e.RunFile = filepath.Join(dir, runFile)
		}
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
	a := &agent{
		agentWiring: agentWiring{
			name: name, cfg: cfg, tz: tz, loc: loc, ws: ws, dir: cfg.StateDir(),
			clock: clock.Or(o.Clock), log: log,
			alerts: o.Alerts, deliver: d, gate: newGate(clock.Or(o.Clock), g.cap, g.breaker, wakeup.New(machineConfig(cfg, d), started)), plan: plan, ledger: g.ledger,
			scanner: sc, started: started, onPulse: o.publishPulse(), onAsk: o.OnAsk,
			hooks: hook.NewTail(ws.Root), day: day.NewRecorder(cfg.StateDir(), loc),
		},
		pulseMemory: pulseMemory{levels: map[string]checks.Level{}},
		wakeMemory:  wakeMemory{announced: map[string]bool{}, urgent: map[string]bool{}, held: map[string]heldNotice{}},
		pauseMemory: pauseMemory{baseline: started},
		pulsed:      make(chan struct{}),
		stateNotes:  g.notes,
	}
	a.hooks.Start(a.clock.Now())
	if o.Asks {
		a.desk = a.newDesk()
	}
	if cfg.Budget.On() {
		a.gate.spent = a.budgetSpent
	}
	if t, ok := d.(*delivery.Tmux); ok {
		a.lookBeforeTyping(t)
	}
	return a, nil
}

// run drives the agent's chambers until ctx ends, then waits for the pulse
// in flight, ends the wakeup in flight and writes the state a last time.
func (a *agent) run(ctx context.Context, phase time.Duration, pulsed func(*agent)) {
	// The lock says "a watchdog runs here" to check and status, which the
	// state file alone cannot prove.
	lock, err := state.Lock(a.dir)
	if err != nil {
		a.log.Error().Err(err).Msg("state folder lock: status and check will say the watchdog is not running")
	} else {
		defer lock.Unlock()
	}
	if !a.reloaded {
		a.markStart()
		if err == nil { // never another live watchdog's run
			a.endLeftover()
		}
		a.restoreChannels(a.clock.Now())
		a.restoreLimits(a.clock.Now())
	}
	a.checkSettings()
	a.openDesk()
	var wg sync.WaitGroup
	wg.Add(4)
	go func() { defer wg.Done(); a.pulseLoop(ctx, phase, pulsed) }()
	go func() { defer wg.Done(); a.sweepLoop(ctx) }()
	go func() { defer wg.Done(); a.scheduleLoop(ctx) }()
	go func() { defer wg.Done(); a.idleLoop(ctx) }()
	wg.Wait()
	a.gate.shutdown()
	a.bg.Wait()
	a.writeState()
	if !a.handover.Load() {
		a.desk.close()
		a.markStop()
	}
	a.ws.ClosePulseFiles()
	a.scanner.Close()
}

// outcome counts a wakeup's fate under the chamber that asked for it, and
// marks it on the day strip.
func (a *agent) outcome(source, outcome string) {
	a.mu.Lock()
	a.counters.Wakeup(source, outcome)
	a.mu.Unlock()
	now := a.clock.Now()
	a.wrote(now, "day strip", a.day.Add(day.Mark{Time: now, Kind: day.KindWakeup, Source: source, Outcome: outcome}))
}

func (a *agent) count(f func(*state.Counters)) {
	a.mu.Lock()
	f(&a.counters)
	a.mu.Unlock()
}

func (a *agent) currentID() workspace.ID {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.id
}

// machineConfig is what the wakeup machine knows of the agent: whether it
// is scheduled, and what its deliverer's traits say answers a wakeup.
func machineConfig(cfg config.AgentConfig, d delivery.Deliverer) wakeup.Config {
	t := d.Traits()
	r := cfg.Recovery
	return wakeup.Config{Scheduled: cfg.Scheduled(), RunIsTheWork: t.RunIsTheWork, Holds: t.Holds,
		Recovery: recovery.Config{MaxAttempts: r.MaxAttempts, MaxWaitCycles: r.MaxWaitCycles, ResumeAfter: r.ResumeAfter.D()}}
}
