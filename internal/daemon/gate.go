package daemon

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/ai-heart/ai-heart/internal/budget"
	"github.com/ai-heart/ai-heart/internal/clock"
	"github.com/ai-heart/ai-heart/internal/state"
)

// errTakenOver is the cause of a flight's end when a takeover replaces it.
var errTakenOver = errors.New("taken over")

// gate is an agent's wakeup gate. It owns everything about a wakeup's life:
// the flight in progress (its source, start and run), the idle state, the
// daily cap and the circuit breaker. Its promise: at most one run of the
// agent is alive at a time. A wakeup asked for while one is in flight is
// coalesced; a takeover (recovery, urgent feedback) ends the flight it
// replaces and starts only once that run is gone.
//
// The gate counts nothing itself: each call returns the fate the caller
// counts, so the agent's lock is never needed under the gate's.
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

	mu         sync.Mutex           // guards everything below
	cur        *flight              // the newest flight, until answered or ended
	running    int                  // flights whose goroutine has not returned
	lastWakeup time.Time            // when the last delivered wakeup began
	idle       bool                 // an idle wakeup was delivered and no proof came since
	svc        serviceHold          // the model's service failed: wakeups held, then probed
	limits     map[string]rateLimit // the client's rate limits, by window
	// drained, once set, admits no flight and is closed when the last
	// running one has returned (a reload waits for it).
	drained chan struct{}
}

// flight is one wakeup from admission to its answer.
type flight struct {
	source string
	at     time.Time
	ctx    context.Context // ends the run: takeover or shutdown
	cancel context.CancelCauseFunc
	done   chan struct{} // closed when the goroutine has returned: its run is gone
	prev   *flight       // the flight this one took over from
	held   bool          // delivered and waiting for the agent's answer (tmux)
}

func newGate(c clock.Clock, dc *budget.DailyCap, br *budget.Breaker) *gate {
	ctx, cancel := context.WithCancel(context.Background())
	return &gate{clock: c, cap: dc, breaker: br, ctx: ctx, cancel: cancel}
}

// open admits a wakeup from source and runs fly on its own goroutine. It
// never blocks. With takeover false a flight in progress coalesces the
// wakeup: open returns false and the caller counts it. With takeover true
// the flight in progress is ended, and fly starts only once its goroutine
// has returned. fly gets the flight's context and reports whether the flight
// stays in flight after it returns (a tmux wakeup waits for its answer).
// After shutdown open returns false and the wakeup is not counted.
func (g *gate) open(source string, takeover bool, fly func(ctx context.Context) (hold bool)) (admitted, shutdown bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.ctx.Err() != nil || g.drained != nil {
		return false, true // shut down, or handing over to a reloaded gate: the new one asks again
	}
	if g.cur != nil && !takeover {
		return false, false
	}
	ctx, cancel := context.WithCancelCause(g.ctx)
	f := &flight{source: source, at: g.clock.Now(), ctx: ctx, cancel: cancel, done: make(chan struct{}), prev: g.cur}
	if f.prev != nil {
		f.prev.cancel(errTakenOver)
	}
	g.cur = f
	g.running++
	g.wg.Add(1)
	go func() {
		defer g.wg.Done()
		defer close(f.done)
		if f.prev != nil {
			<-f.prev.done // the run it replaces is gone before this one starts
			g.mu.Lock()
			f.prev, f.at = nil, g.clock.Now() // its wakeup begins now
			g.mu.Unlock()
		}
		hold := fly(ctx)
		g.mu.Lock()
		defer g.mu.Unlock()
		g.running--
		if g.running == 0 && g.drained != nil {
			close(g.drained)
		}
		if g.cur != f {
			return // taken over meanwhile
		}
		if hold && ctx.Err() == nil {
			f.held = true
			return
		}
		g.cur = nil
		cancel(nil)
	}()
	return true, false
}

// superseded reports whether a flight was taken over (or shut down) before
// its run began: the caller counts it as coalesced into the newer one.
func superseded(ctx context.Context) bool { return ctx.Err() != nil }

// answer ends a held flight that began before at: the agent answered it
// (a log written after the tmux wakeup, or the turn's end). A flight still
// running is untouched. It reports the answered flight's source and start.
func (g *gate) answer(at time.Time) (source string, since time.Time, ok bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if f := g.cur; f != nil && f.held && at.After(f.at) {
		g.cur = nil
		f.cancel(nil)
		return f.source, f.at, true
	}
	return "", time.Time{}, false
}

// release ends a held flight whatever its answer (recovery finished).
func (g *gate) release() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if f := g.cur; f != nil && f.held {
		g.cur = nil
		f.cancel(nil)
	}
}

// inFlight reports the flight in progress, if any.
func (g *gate) inFlight() (source string, since time.Time, ok bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.cur == nil {
		return "", time.Time{}, false
	}
	return g.cur.source, g.cur.at, true
}

// delivered records a wakeup that reached the agent at at: the idle chamber
// counts from it, and an idle one makes the agent idle.
func (g *gate) delivered(at time.Time, idle bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.lastWakeup = at
	if idle {
		g.idle = true
	}
}

// proof folds in the newest proof of activity: one after the last wakeup
// ends idleness. It reports whether the agent stopped being idle.
func (g *gate) proof(at time.Time) (woke bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.idle && at.After(g.lastWakeup) {
		g.idle = false
		return true
	}
	return false
}

// idleState reports whether the agent is idle and when it was last woken.
func (g *gate) idleState() (idle bool, lastWakeup time.Time) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.idle, g.lastWakeup
}

// adopt carries the wakeup history of a gate being replaced (config reload).
// The old gate has shut down: no flight carries over.
func (g *gate) adopt(old *gate) {
	idle, last := old.idleState()
	old.mu.Lock()
	svc := old.svc
	old.mu.Unlock()
	g.mu.Lock()
	g.idle, g.lastWakeup, g.svc = idle, last, svc
	g.mu.Unlock()
}

// pass decides whether a flight may invoke the agent now. outcome is ""
// when it may (the daily cap has been taken), else the wakeup's fate. The
// breaker comes first when it is plainly open, so a skipped wakeup spends no
// cap; the cap before Allow, so a dropped wakeup never holds the probe.
// capReached reports the first wakeup dropped today, for the one alert.
func (g *gate) pass(now time.Time) (outcome string, probe, capReached bool, err error) {
	if until, _ := g.held(); now.Before(until) {
		return state.OutcomeHeldService, false, false, nil // nothing retries a run that cannot succeed
	}
	if st := g.breaker.State(now); st.State == budget.Open && st.CooldownLeft > 0 {
		g.breaker.Allow(now) // counts the skip
		return state.OutcomeSkipped, false, false, nil
	}
	if g.spent != nil && g.spent(now) {
		return state.OutcomeDroppedBudget, false, false, nil
	}
	ok, first, err := g.cap.Take(now)
	if !ok {
		return state.OutcomeDroppedCap, false, first, err
	}
	if ok, probe = g.breaker.Allow(now); !ok {
		return state.OutcomeSkipped, false, false, err
	}
	return "", probe, false, err
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

// shuttingDown reports whether the gate has shut down.
func (g *gate) shuttingDown() bool { return g.ctx.Err() != nil }

// shutdown ends every flight and waits until their runs are gone. Under the
// lock, so no flight is admitted between the end and the wait.
func (g *gate) shutdown() {
	g.mu.Lock()
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
