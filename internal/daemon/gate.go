package daemon

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/ai-heart/ai-heart/internal/budget"
	"github.com/ai-heart/ai-heart/internal/clock"
	"github.com/ai-heart/ai-heart/internal/state"
	"github.com/ai-heart/ai-heart/internal/wakeup"
)

// errTakenOver is the cause of a flight's end when a takeover replaces it.
var errTakenOver = errors.New("taken over")

// gate is an agent's wakeup gate: the wakeup machine (internal/wakeup), which
// decides every wakeup's life, and the runs it starts. Its promise, the
// machine's: at most one run of the agent is alive at a time. A wakeup asked
// for while one is in flight is coalesced; a takeover (recovery, urgent
// feedback) ends the flight it replaces and starts only once that run is
// gone.
//
// The gate counts nothing itself: each step returns the effects the agent
// carries out, so the agent's lock is never needed under the gate's.
type gate struct {
	clock   clock.Clock
	cap     *budget.DailyCap
	breaker *budget.Breaker
	// spent reports whether the daily token and money budget is spent
	// (nil: no budget).
	spent func(now time.Time) bool

	ctx    context.Context // the parent of every flight; ended at shutdown
	cancel context.CancelFunc
	wg     sync.WaitGroup // flight goroutines

	mu      sync.Mutex           // guards everything below
	m       wakeup.State         // the machine
	flights map[int]*flight      // the machine's flights whose context is not ended
	running int                  // flights whose goroutine has not returned
	svc     serviceHold          // the model's service failed: wakeups held, then probed
	limits  map[string]rateLimit // the client's rate limits, by window
	// drained, once set, admits no flight and is closed when the last
	// running one has returned (a reload waits for it).
	drained chan struct{}
}

// flight is the run of one of the machine's flights.
type flight struct {
	ctx      context.Context // ends the run: takeover or shutdown
	cancel   context.CancelCauseFunc
	done     chan struct{} // closed when the goroutine has returned: its run is gone
	returned bool          // under gate.mu
}

func newGate(c clock.Clock, dc *budget.DailyCap, br *budget.Breaker, m wakeup.State) *gate {
	ctx, cancel := context.WithCancel(context.Background())
	return &gate{clock: c, cap: dc, breaker: br, ctx: ctx, cancel: cancel, m: m, flights: map[int]*flight{}}
}

// step feeds the machine one event and returns what the agent carries out.
// The flights' own effects are carried out here: a takeover ends the run it
// replaces, and a flight that is over has its context ended.
func (g *gate) step(now time.Time, ev wakeup.Event) []wakeup.Effect {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.stepLocked(now, ev, nil)
}

// stepLocked is step with g.mu held; fly starts an admitted flight's run.
func (g *gate) stepLocked(now time.Time, ev wakeup.Event, fly func(ctx context.Context, n int)) []wakeup.Effect {
	var effs []wakeup.Effect
	g.m, effs = wakeup.Step(g.m, ev, now)
	for _, e := range effs {
		switch e.Kind {
		case wakeup.End:
			if f := g.flights[e.N]; f != nil && e.Outcome == state.OutcomeTakenOver {
				f.cancel(errTakenOver)
			}
		case wakeup.Admit:
			g.start(e.N, g.flights[e.Prev], fly)
		}
	}
	for n, f := range g.flights {
		if f.returned && (g.m.Cur == nil || g.m.Cur.N != n) {
			f.cancel(nil) // answered, released or ended: nothing runs any more
			delete(g.flights, n)
		}
	}
	return effs
}

// start runs flight n's fly on its own goroutine, once the run of prev (the
// flight it replaces; nil: none) is gone. Called with g.mu held.
func (g *gate) start(n int, prev *flight, fly func(ctx context.Context, n int)) {
	ctx, cancel := context.WithCancelCause(g.ctx)
	f := &flight{ctx: ctx, cancel: cancel, done: make(chan struct{})}
	g.flights[n] = f
	g.running++
	g.wg.Add(1)
	go func() {
		defer g.wg.Done()
		defer close(f.done)
		if prev != nil {
			<-prev.done // the run it replaces is gone before this one starts
		}
		fly(ctx, n)
		g.mu.Lock()
		defer g.mu.Unlock()
		g.running--
		if g.running == 0 && g.drained != nil {
			close(g.drained)
		}
		f.returned = true
		if g.m.Cur == nil || g.m.Cur.N != n {
			cancel(nil) // not held for an answer: over
			delete(g.flights, n)
		}
	}()
}

// ask asks the machine for a wakeup; an admitted one runs fly on its own
// goroutine. It never blocks.
func (g *gate) ask(e wakeup.Ask, fly func(ctx context.Context, n int)) []wakeup.Effect {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.stepLocked(g.clock.Now(), e, fly)
}

// beat steps the machine with a pulse's verdict for recovery; a recovery
// attempt it admits runs fly on its own goroutine. It returns the effects
// and recovery as the step left it, which the effects are read with.
func (g *gate) beat(now time.Time, b wakeup.Beat, fly func(ctx context.Context, n int)) ([]wakeup.Effect, state.Recovery) {
	g.mu.Lock()
	defer g.mu.Unlock()
	effs := g.stepLocked(now, b, fly)
	return effs, g.m.Rec
}

// recovery is the machine's recovery state.
func (g *gate) recovery() state.Recovery {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.m.Rec
}

// owed is what the agent is owed now: what the next wakeup carries.
func (g *gate) owed() wakeup.Owed {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.m.Owed()
}

// work is the machine's working stretch.
func (g *gate) work() wakeup.Work {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.m.Work
}

// inFlight reports the flight in progress, if any.
func (g *gate) inFlight() (source string, since time.Time, ok bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.m.Cur == nil {
		return "", time.Time{}, false
	}
	return g.m.Cur.Source, g.m.Cur.At, true
}

// idleState reports whether the agent is idle and when it was last woken.
func (g *gate) idleState() (idle bool, lastWakeup time.Time) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.m.Idle, g.m.LastWakeup
}

// adopt carries the wakeup history of a gate being replaced (config reload).
// The old gate has shut down: no flight carries over.
func (g *gate) adopt(old *gate) {
	old.mu.Lock()
	m, svc, limits := old.m, old.svc, old.limits
	old.mu.Unlock()
	g.mu.Lock()
	g.m, g.svc, g.limits = m.Carry(g.m.Cfg), svc, limits
	g.mu.Unlock()
}

// facts are the gate's facts at now, as a flight reaches it: the holds, the
// breaker, the budget and the cap, read without changing them. A rate
// limit past spreadAt spreads the schedule, never wider than widest.
func (g *gate) facts(now time.Time, spreadAt float64, widest time.Duration) wakeup.Facts {
	until, _ := g.held()
	br := g.breaker.State(now)
	return wakeup.Facts{
		Held:        now.Before(until), // nothing retries a run that cannot succeed
		Spread:      g.spreadOut(now, spreadAt, widest),
		BreakerOpen: br.State == budget.Open && br.CooldownLeft > 0,
		ProbeOut:    br.State == budget.HalfOpen && br.ProbeOut,
		Spent:       g.spent != nil && g.spent(now),
		CapFull:     g.capSpent(now),
	}
}

// held is when the service hold ends (zero: none), and the failure that
// began it.
func (g *gate) held() (time.Time, string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.svc.until, g.svc.kind
}

// capSpent reports whether the daily cap allows no more invocations today.
func (g *gate) capSpent(now time.Time) bool {
	st := g.cap.State(now)
	return st.Limit > 0 && st.Used >= st.Limit
}

// drain admits no more flights and waits until every running one has
// returned (a run ends as it would have; a held tmux flight runs nothing
// and is not waited for), or until ctx ends. A reload drains the old gate
// before its agent stops, so the reload ends no run.
func (g *gate) drain(ctx context.Context) {
	g.mu.Lock()
	g.stepLocked(g.clock.Now(), wakeup.Close{}, nil)
	if g.drained == nil {
		g.drained = make(chan struct{})
		if g.running == 0 {
			close(g.drained)
		}
	}
	done := g.drained
	g.mu.Unlock()
	select {
	case <-done:
	case <-ctx.Done():
	}
}

// shutdown ends every flight and waits until their runs are gone. Under the
// lock, so no flight is admitted between the end and the wait.
func (g *gate) shutdown() {
	g.mu.Lock()
	g.stepLocked(g.clock.Now(), wakeup.Close{Stop: true}, nil)
	g.cancel()
	g.mu.Unlock()
	g.wg.Wait()
}

// alive is how many flights' goroutines have not returned (for tests).
func (g *gate) alive() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.running
}
