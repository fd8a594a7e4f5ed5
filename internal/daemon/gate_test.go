package daemon

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/rs/zerolog"

	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/delivery"
	"github.com/ai-heart/ai-heart/internal/pause"
	"github.com/ai-heart/ai-heart/internal/state"
	"github.com/ai-heart/ai-heart/internal/wakeup"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// runKind is how a simulated agent run behaves.
type runKind int

const (
	runSucceeds runKind = iota // exits 0 after a while
	runGhost                   // exits 0 with [IDLE]
	runFails                   // exits non-zero after a while
	runCrashes                 // dies at once
	runHangs                   // hangs until the run timeout ends it; dies some time after SIGTERM
	runTimesOut                // ends at the run timeout with ErrTimeout
	numRunKinds
)

// simAgent is an exec agent whose runs behave as the test draws them. It
// counts invocations and the runs alive, and records any overlap.
type simAgent struct {
	rng      *rand.Rand
	mu       sync.Mutex
	calls    int
	ended    int // runs ended from outside (takeover) before their own end
	alive    int
	overlaps []string
}

const simTimeout = 5 * time.Second

func (s *simAgent) Deliver(ctx context.Context, prompt string) (delivery.Result, error) {
	s.mu.Lock()
	s.calls++
	s.alive++
	if s.alive > 1 {
		s.overlaps = append(s.overlaps, fmt.Sprintf("call %d started with %d runs alive", s.calls, s.alive))
	}
	kind := runKind(s.rng.IntN(int(numRunKinds)))
	took := time.Duration(s.rng.IntN(3000)) * time.Millisecond
	dying := time.Duration(s.rng.IntN(2000)) * time.Millisecond // between SIGTERM and the end
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.alive--
		s.mu.Unlock()
	}()
	ended := func() (delivery.Result, error) {
		s.mu.Lock()
		s.ended++
		s.mu.Unlock()
		time.Sleep(dying)
		return delivery.Result{ExitCode: -1}, fmt.Errorf("run: %w", context.Cause(ctx))
	}
	switch kind {
	case runCrashes:
		return delivery.Result{ExitCode: 2}, errors.New("run: exit code 2")
	case runHangs:
		took = 4 * simTimeout
	case runTimesOut:
		took = simTimeout
	}
	select {
	case <-ctx.Done():
		return ended()
	case <-time.After(took):
	}
	switch kind {
	case runFails:
		return delivery.Result{ExitCode: 1}, errors.New("run: exit code 1")
	case runTimesOut, runHangs:
		return delivery.Result{ExitCode: -1}, delivery.ErrTimeout
	case runGhost:
		return delivery.Result{Reply: "[IDLE]", Said: "[IDLE]"}, nil
	}
	return delivery.Result{Reply: "done"}, nil
}

func (s *simAgent) Method() string          { return config.DeliveryExec }
func (s *simAgent) Traits() delivery.Traits { return delivery.Traits{RunIsTheWork: true} }

// fates adds up the wakeups given a fate (a ghost is also delivered, so it
// is not added twice).
func fates(c state.Counters) int64 {
	var n int64
	for _, by := range c.BySource {
		for outcome, k := range by {
			if outcome != state.OutcomeGhost {
				n += k
			}
		}
	}
	return n
}

// TestGateRandomSequences drives random sequences of schedule, idle,
// recovery and urgent wakeups, pauses and gave-up spells against runs that
// succeed, fail, crash, hang or time out, on fake time. After every step: at
// most one run was ever alive, every invocation took from the daily cap, and
// every wakeup asked for has exactly one fate or is still in flight.
func TestGateRandomSequences(t *testing.T) {
	for seed := range uint64(20) {
		t.Run(fmt.Sprintf("seed%d", seed), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) { gateSequence(t, seed) })
		})
	}
}

func gateSequence(t *testing.T, seed uint64) {
	rng := rand.New(rand.NewPCG(seed, 17))
	sim := &simAgent{rng: rand.New(rand.NewPCG(seed, 42))}
	cfg := testConfig(t)
	cfg.DailyCap = 25
	cfg.CircuitBreaker = config.CircuitBreaker{Failures: 3, Cooldown: config.Duration(3 * time.Second), MaxCooldown: config.Duration(12 * time.Second)}
	ac := cfg.AgentConfigs()[0]
	a, err := newAgent(ac, cfg.Timezone, cfg.Location(), Options{
		Log: zerolog.Nop(),
		NewDeliverer: func(config.Delivery, *workspace.Workspace) (delivery.Deliverer, error) {
			return sim, nil
		},
	}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	defer a.gate.shutdown()

	var asked int64
	var trace []string
	check := func() {
		t.Helper()
		synctest.Wait()
		a.mu.Lock()
		c := a.counters.Clone()
		a.mu.Unlock()
		sim.mu.Lock()
		calls, overlaps := sim.calls, append([]string(nil), sim.overlaps...)
		sim.mu.Unlock()
		if len(overlaps) > 0 {
			t.Fatalf("two runs alive at once: %v\nsteps: %v", overlaps, trace)
		}
		if used := a.gate.cap.State(time.Now()).Used; used != calls {
			t.Fatalf("the daily cap counted %d invocations, the agent saw %d\nsteps: %v", used, calls, trace)
		}
		if open := int64(a.gate.alive()); fates(c)+open != asked {
			t.Fatalf("%d wakeups asked for, %d with a fate and %d in flight: %+v\nsteps: %v", asked, fates(c), open, c.BySource, trace)
		}
	}
	pausedFor, gaveUpFor := 0, 0 // steps left in a pause or a gave-up spell
	for range 300 {
		var step string
		a.mu.Lock()
		if pausedFor--; pausedFor == 0 {
			a.paused = nil
		}
		if gaveUpFor--; gaveUpFor == 0 {
			a.gate.mu.Lock()
			a.gate.m.Rec.GaveUp = false
			a.gate.mu.Unlock()
		}
		a.mu.Unlock()
		switch r := rng.IntN(40); {
		case r < 10:
			step = "schedule"
			asked++
			a.wake(srcSchedule, "heartbeat")
		case r < 14:
			step = "idle"
			asked++
			a.wake(srcIdle, "idle")
		case r < 19:
			step = "recovery"
			asked++
			a.request(wakeup.Ask{Source: srcRecovery, Takeover: true}, "")
		case r < 23:
			step = "urgent"
			asked++
			a.wakeUrgent([]string{"feedbackbox/x.md"})
		case r < 24:
			step, pausedFor = "pause", 1+rng.IntN(4)
			a.mu.Lock()
			a.paused = &pause.Pause{Reason: "test"}
			a.mu.Unlock()
		case r < 25:
			step, gaveUpFor = "gave up", 1+rng.IntN(4)
			a.mu.Lock()
			a.gate.mu.Lock()
			a.gate.m.Rec.GaveUp = true
			a.gate.mu.Unlock()
			a.mu.Unlock()
		default:
			d := time.Duration(rng.IntN(3000)) * time.Millisecond
			step = "sleep " + d.String()
			time.Sleep(d)
		}
		trace = append(trace, step)
		check()
	}
	// Left alone, every run ends: each wakeup has its fate.
	time.Sleep(time.Minute)
	check()
	if a.gate.alive() != 0 {
		t.Fatalf("%d flights still running after a quiet minute", a.gate.alive())
	}
	if sim.calls == 0 {
		t.Fatal("no run was ever invoked: the sequence tested nothing")
	}
	if sim.ended == 0 {
		t.Fatal("no takeover ended a run: the sequence tested nothing of it")
	}
	t.Logf("%d asked, %d runs, %d ended by a takeover: %v", asked, sim.calls, sim.ended, a.counters.BySource)
}

// TestTakeoverEndsTheRunItReplaces: recovery over a hanging run ends that
// run (its context, which exec turns into SIGTERM then SIGKILL) and starts
// only once it is gone; the ended run is a failure, not an answer.
func TestTakeoverEndsTheRunItReplaces(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig(t)
		var mu sync.Mutex
		var events []string
		var n atomic.Int32
		nd := func(config.Delivery, *workspace.Workspace) (delivery.Deliverer, error) {
			return &fakeDeliverer{method: config.DeliveryExec, deliver: func(ctx context.Context, p string) (delivery.Result, error) {
				i := n.Add(1)
				mu.Lock()
				events = append(events, fmt.Sprintf("start %d", i))
				mu.Unlock()
				<-ctx.Done()
				time.Sleep(time.Second) // a client saving its session on SIGTERM
				mu.Lock()
				events = append(events, fmt.Sprintf("end %d", i))
				mu.Unlock()
				return delivery.Result{ExitCode: -1}, context.Cause(ctx)
			}}, nil
		}
		a, err := newAgent(cfg.AgentConfigs()[0], cfg.Timezone, cfg.Location(), Options{Log: zerolog.Nop(), NewDeliverer: nd}, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		a.wake(srcSchedule, "heartbeat")
		synctest.Wait()
		a.wake(srcSchedule, "heartbeat") // coalesced: one is in flight
		a.request(wakeup.Ask{Source: srcRecovery, Takeover: true}, "")
		synctest.Wait()
		mu.Lock()
		got := fmt.Sprint(events)
		mu.Unlock()
		if got != "[start 1]" {
			t.Fatalf("events right after the takeover = %s, want only the first run, ending", got)
		}
		time.Sleep(1500 * time.Millisecond)
		synctest.Wait()
		mu.Lock()
		got = fmt.Sprint(events)
		mu.Unlock()
		if got != "[start 1 end 1 start 2]" {
			t.Fatalf("events = %s, want the first run gone before the second starts", got)
		}
		a.mu.Lock()
		c := a.counters.Clone()
		working, _ := a.gate.work().Working()
		a.mu.Unlock()
		if by := c.BySource[srcSchedule]; by[state.OutcomeTakenOver] != 1 || by[state.OutcomeCoalesced] != 1 {
			t.Fatalf("schedule wakeups %v, want the ended run taken over and the second coalesced", by)
		}
		if c.DeliveryFailures != 0 {
			t.Fatalf("delivery_failures = %d: a run the watchdog ended is not the delivery's failure", c.DeliveryFailures)
		}
		if !working {
			t.Fatal("an ended run answered its wakeup; the agent must still be working")
		}
		a.gate.shutdown()
	})
}

// TestTimedOutRunsAreNoAnswer: every run times out (2s) before the
// inactivity warning (3s), one wakeup each second. The first unanswered
// wakeup starts the working stretch, and later wakeups do not restart it, so
// the inactivity error comes (the old rule never raised it).
func TestTimedOutRunsAreNoAnswer(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig(t)
		cfg.Thresholds.InactivityWarning = config.Duration(3 * time.Second)
		cfg.Thresholds.InactivityError = config.Duration(5 * time.Second)
		cfg.Schedule.Every = config.Duration(time.Second)
		nd := func(config.Delivery, *workspace.Workspace) (delivery.Deliverer, error) {
			return &fakeDeliverer{method: config.DeliveryExec, deliver: func(ctx context.Context, p string) (delivery.Result, error) {
				select {
				case <-time.After(2 * time.Second):
					return delivery.Result{ExitCode: -1}, delivery.ErrTimeout
				case <-ctx.Done():
					return delivery.Result{ExitCode: -1}, ctx.Err()
				}
			}}, nil
		}
		h := startFake(t, cfg, nd)
		time.Sleep(7 * time.Second) // first wakeup at 1s; the error is due after 6s
		synctest.Wait()
		if !h.hasAlert("inactivity", "error") {
			t.Fatalf("no inactivity error after 6s of timed-out runs; alerts %v", alertsOf(t, h.alerts))
		}
		st := h.state()
		if st.Work.Mode != state.WorkWorking || st.Work.Since == nil || st.Work.Since.After(st.StartedAt.Add(1500*time.Millisecond)) {
			t.Fatalf("work %+v, want working since the first wakeup at 1s", st.Work)
		}
	})
}
