package daemon

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rs/zerolog"

	"github.com/ai-heart/ai-heart/internal/alert"
	"github.com/ai-heart/ai-heart/internal/asks"
	"github.com/ai-heart/ai-heart/internal/clock"
	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/delivery"
	"github.com/ai-heart/ai-heart/internal/state"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// Notifier tells the service manager about the daemon (systemd sd_notify).
type Notifier interface {
	Ready() error
	Watchdog() error
	Stopping() error
}

// Options wire a Daemon. Zero values are usable: real clock, no alerts
// file, no systemd, the real deliverers.
type Options struct {
	Clock  clock.Clock
	Log    zerolog.Logger
	Alerts *alert.Sink
	Notify Notifier
	// NewDeliverer builds an agent's deliverer; nil means delivery.New.
	NewDeliverer func(config.Delivery, *workspace.Workspace) (delivery.Deliverer, error)
	// ScanPoll lists each workspace on every pulse instead of following it
	// with inotify (see scan.Scanner.Poll).
	ScanPoll bool
	// Subscribers are called in order after every pulse of every agent (the
	// page, the metrics, MQTT...). They run on the pulse's goroutine: each
	// must only hand the event on, never wait.
	Subscribers []func(PulseEvent)
	// Asks opens each agent's asks socket (config asks), where its
	// client's hooks offer their questions to a person. Off, none is
	// offered: the tests under synctest keep it off, since a goroutine
	// waiting on a socket would stop their fake clock.
	Asks bool
	// OnAsk hears every agent's questions offered afar, their answers and
	// withdrawals (the notifications, the page, the metrics). It must not
	// block.
	OnAsk func(asks.Change)
}

// publishPulse is the Subscribers, as the one func an agent calls after
// each pulse (nil when there are none).
func (o Options) publishPulse() func(PulseEvent) {
	subs := slices.Clone(o.Subscribers)
	if len(subs) == 0 {
		return nil
	}
	return func(e PulseEvent) {
		for _, f := range subs {
			f(e)
		}
	}
}

// Daemon supervises the agents of one config. Agents share nothing but the
// process: each has its own workspace, chambers, cap and breaker.
type Daemon struct {
	opts    Options
	started time.Time
	reload  chan reloadReq

	mu     sync.Mutex
	cfg    *config.Config
	agents []*agent
	named  atomic.Value // map[string]*agent: agents by name, read without mu (see alertsFileFailed)
}

type reloadReq struct {
	cfg  *config.Config
	done chan error
}

// New builds the agents of cfg. It fails when any agent cannot start (a
// missing workspace, a bad delivery setting).
func New(cfg *config.Config, o Options) (*Daemon, error) {
	d := &Daemon{opts: o, started: clock.Or(o.Clock).Now(), reload: make(chan reloadReq)}
	agents, err := d.build(cfg)
	if err != nil {
		return nil, err
	}
	for _, a := range agents {
		if err := state.Taken(a.dir); err != nil {
			return nil, fmt.Errorf("agent %s: %s: %w", a.name, a.ws.Root, err)
		}
	}
	d.cfg, d.agents = cfg, agents
	d.named.Store(byName(agents))
	if o.Alerts != nil {
		o.Alerts.OnFileFailed(d.alertsFileFailed)
	}
	return d, nil
}

func (d *Daemon) build(cfg *config.Config) ([]*agent, error) {
	var out []*agent
	for _, ac := range cfg.AgentConfigs() {
		a, err := newAgent(ac, cfg.Timezone, cfg.Location(), d.opts, d.started)
		if err != nil {
			return nil, err
		}
		a.settings.listen = cfg.HTTP.Listen
		out = append(out, a)
	}
	if cfg.FleetBudget.On() {
		fb := &fleetBudget{b: cfg.FleetBudget, loc: cfg.Location(), agents: out, alerts: d.opts.Alerts}
		for _, a := range out {
			a.fleet = fb
			own := a.gate.spent
			a.gate.spent = func(now time.Time) bool { return (own != nil && own(now)) || fb.spent(now) }
		}
	}
	return out, nil
}

// adopt carries an agent's memory across a config reload, so a reload fires
// no alert again and loses no count.
func (a *agent) adopt(old *agent) {
	old.mu.Lock()
	defer old.mu.Unlock()
	a.levels, a.checkState = old.levels, old.checkState
	a.counters, a.lastProof = old.counters, old.lastProof
	a.announced, a.pulse, a.held = old.announced, old.pulse, old.held
	a.writes = old.writes
	a.baseline, a.paused, a.last = old.baseline, old.paused, old.last
	a.activity, a.refusals, a.serviceAlerted = old.activity, old.refusals, old.serviceAlerted
	a.settings.alerted = old.settings.alerted // a reload alerts only what is new
	a.limitMemory = old.limitMemory           // the spool's tail, read again, arms no window a resume dismissed
	a.adoptDesk(old)                          // the hooks holding questions keep their connections
	// The working stretch and recovery go on across a reload: a wakeup
	// still unanswered is still owed, whatever the new config schedules.
	a.gate.adopt(old.gate)
	if a.ws.Root == old.ws.Root {
		a.ledger = old.ledger // one ledger per workspace: the old one is current
		// The cap and the breaker were read when the new config was
		// built; the old ones counted on while the reload waited.
		a.gate.cap.Adopt(old.gate.cap)
		a.gate.breaker.Adopt(old.gate.breaker)
		a.reloaded = true // the watchdog never stopped here: no "stopped" mark
		// The state folder's notes are told once, by the first pulse.
		a.stateNotes = old.stateNotes
	}
}

// Agents names the supervised agents.
func (d *Daemon) Agents() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	var out []string
	for _, a := range d.agents {
		out = append(out, a.name)
	}
	return out
}

// Workspace is the named agent's workspace, nil for a name it does not
// run: a reader of its files (the page's log view) goes through the one
// root the agent holds.
func (d *Daemon) Workspace(name string) *workspace.Workspace {
	if a, ok := d.named.Load().(map[string]*agent)[name]; ok {
		return a.ws
	}
	return nil
}

// Statuses returns the state each agent's last pulse wrote (an agent yet to
// pulse has only its name).
func (d *Daemon) Statuses() []state.State {
	d.mu.Lock()
	agents := d.agents
	d.mu.Unlock()
	out := make([]state.State, 0, len(agents))
	for _, a := range agents {
		a.mu.Lock()
		st := a.last
		a.mu.Unlock()
		if st.Agent == "" {
			st.Agent = a.name
		}
		out = append(out, st)
	}
	return out
}

// Reload replaces the configuration while running. A config whose agents
// cannot be built is refused and the old one keeps running.
func (d *Daemon) Reload(ctx context.Context, cfg *config.Config) error {
	r := reloadReq{cfg: cfg, done: make(chan error, 1)}
	select {
	case d.reload <- r:
	case <-ctx.Done():
		return ctx.Err()
	}
	select {
	case err := <-r.done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Run supervises until ctx ends: then it lets every pulse in flight finish,
// cancels deliveries, persists state and returns nil.
func (d *Daemon) Run(ctx context.Context) error {
	notify := d.opts.Notify
	ready := false
	for {
		d.mu.Lock()
		agents := d.agents
		d.mu.Unlock()
		actx, stop := context.WithCancel(ctx)
		var wg sync.WaitGroup
		pinger := newPinger(agents, func() {
			if notify == nil {
				return
			}
			if !ready {
				ready = true
				_ = notify.Ready()
			}
			_ = notify.Watchdog()
		})
		for i, a := range agents {
			// The first agent pulses at once; the others spread over its
			// interval. After a reload each goes on at its own rhythm: no
			// extra pulse right after the last one.
			phase := a.cfg.Pulse.Interval.D() * time.Duration(i) / time.Duration(len(agents))
			if a.reloaded {
				phase = a.nextPulseIn()
			}
			wg.Add(1)
			go func(a *agent) { defer wg.Done(); a.run(actx, phase, pinger.pulsed) }(a)
		}
	wait:
		for {
			select {
			case <-ctx.Done():
				if notify != nil {
					_ = notify.Stopping()
				}
				stop()
				wg.Wait()
				return nil
			case r := <-d.reload:
				next, err := d.build(r.cfg)
				if err != nil {
					r.done <- fmt.Errorf("reload refused, old config kept: %w", err)
					continue // the old agents keep running
				}
				// The runs in flight finish as they would have (the old
				// agents pulse on meanwhile): a reload ends no run.
				for _, o := range agents {
					o.gate.drain(ctx)
				}
				for _, o := range agents {
					o.handover.Store(ctx.Err() == nil)
				}
				stop()
				wg.Wait()
				if ctx.Err() != nil { // stopped while waiting: the old config stays to the end
					r.done <- ctx.Err()
					if notify != nil {
						_ = notify.Stopping()
					}
					return nil
				}
				for _, a := range next {
					for _, o := range agents {
						if o.name == a.name {
							a.adopt(o)
						}
					}
				}
				for _, o := range agents {
					if o.desk != nil && !o.desk.adopted {
						o.desk.close() // its agent is gone, or asks elsewhere now
					}
				}
				d.mu.Lock()
				d.cfg, d.agents = r.cfg, next
				d.named.Store(byName(next))
				d.mu.Unlock()
				r.done <- nil
				break wait
			}
		}
	}
}

// pinger sends WATCHDOG=1 only when every agent has completed a pulse since
// the last ping: a pulse that hangs stops the pings and systemd restarts us.
type pinger struct {
	mu    sync.Mutex
	seen  map[*agent]bool
	total int
	ping  func()
}

func newPinger(agents []*agent, ping func()) *pinger {
	return &pinger{seen: map[*agent]bool{}, total: len(agents), ping: ping}
}

func (p *pinger) pulsed(a *agent) {
	p.mu.Lock()
	p.seen[a] = true
	all := len(p.seen) >= p.total
	if all {
		p.seen = map[*agent]bool{}
	}
	p.mu.Unlock()
	if all {
		p.ping()
	}
}
