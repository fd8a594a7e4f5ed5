package wakeup

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/checks"
	"github.com/ai-heart/ai-heart/internal/recovery"
)

// sim is a driver as the daemon is one: it starts a flight's run only once
// the run it replaces is gone, and reports each run's end. Its pulses see
// a recoverable check at error while stuck.
type sim struct {
	live  map[int]*run // admitted flights whose run has not returned
	stuck bool
}

type run struct {
	source    string
	prev      int
	delivered bool
	ended     bool // an End effect reached it
	start     time.Time
	owed      Owed // what its wakeup carried
}

// TestStepInvariants drives random sequences of events through the machine,
// as a driver would, and checks after every step what must hold whatever
// the order.
func TestStepInvariants(t *testing.T) {
	sources := []string{Schedule, Idle, Recovery, Feedback}
	cfgs := []Config{execCfg, tmuxCfg, {Scheduled: true}, {RunIsTheWork: true}}
	gaveUps, backs, told := 0, 0, 0
	for seed := range uint64(300) {
		r := rand.New(rand.NewPCG(seed, 31))
		cfg := cfgs[seed%uint64(len(cfgs))]
		cfg.Recovery = recovery.Config{MaxAttempts: 1 + int(seed%3), MaxWaitCycles: int(seed / 3 % 3), ResumeAfter: time.Duration(seed/9%2) * 40 * time.Second}
		s := New(cfg, t0)
		now := t0
		d := sim{live: map[int]*run{}}
		asked, fated, admitted, lost := 0, 0, map[int]int{}, 0
		ends := map[int]int{}
		rc := recChecks{seed: seed, t: t, attempts: map[int]bool{}, told: map[time.Time]int{}}
		for i := range 400 {
			now = now.Add(time.Duration(r.IntN(5000)) * time.Millisecond)
			ev := d.draw(r, s, now, sources, seed%2 == 0 && i > 350) // odd seeds stop with runs alive
			if ev == nil {
				continue
			}
			prev := s
			var effs []Effect
			s, effs = Step(s, ev, now)
			if _, ok := ev.(Ask); ok || has(effs, Admit) { // a recovery attempt is an ask too
				asked++
			}
			rc.step(prev, s, ev, effs)
			booked, refused := false, false
			for _, e := range effs {
				switch e.Kind {
				case Count:
					fated++
					if e.N != 0 {
						admitted[e.N]--
						if admitted[e.N] < 0 {
							t.Fatalf("seed %d: flight %d given two fates", seed, e.N)
						}
						if _, isPass := ev.(Pass); isPass && e.Outcome != "coalesced" {
							refused = true
						}
					}
				case Admit:
					admitted[e.N] = 1
					d.live[e.N] = &run{source: e.Source, prev: e.Prev}
				case End:
					ends[e.N]++
					if ends[e.N] > 1 {
						t.Fatalf("seed %d: flight %d ended twice", seed, e.N)
					}
					if l := d.live[e.N]; l != nil {
						l.ended = true
					}
				case Book:
					booked = true
				case Deliver:
					for n, l := range d.live {
						if n != e.N && l.delivered {
							t.Fatalf("seed %d: flight %d delivered while %d's run is alive", seed, e.N, n)
						}
					}
					d.live[e.N].delivered, d.live[e.N].start, d.live[e.N].owed = true, now, e.Owed
				}
			}
			if booked && refused {
				t.Fatalf("seed %d: a refused wakeup took from the cap: %s", seed, show(effs))
			}
			switch e := ev.(type) {
			case Pass:
				if !has(effs, Deliver) {
					delete(d.live, e.N)
				}
			case Ran:
				delete(d.live, e.N)
			case Ask:
				if !has(effs, Admit) && !has(effs, Count) && !s.Closed {
					t.Fatalf("seed %d: an ask with no fate: %s", seed, show(effs))
				}
			}
			if s.Cur != nil && s.Cur.Phase == Held && !cfg.Holds {
				t.Fatalf("seed %d: a held flight for a deliverer that does not hold", seed)
			}
			wasW, _ := prev.Work.Working()
			isW, _ := s.Work.Working()
			if wasW && !isW && !answers(ev, cfg) {
				t.Fatalf("seed %d: working ended by %T %+v, no answer", seed, ev, ev)
			}
			if !wasW && isW && !has(effs, Worked) {
				t.Fatalf("seed %d: working began with no delivery: %T", seed, ev)
			}
		}
		gaveUps += rc.gaveUps
		told += len(rc.told)
		if s.Rec.GaveUp { // a give-up ends: the errors stop, the operator resumes, or its time passes
			var effs []Effect
			ev := Beat{}
			switch {
			case seed%2 == 0:
			case cfg.Recovery.ResumeAfter > 0:
				ev = Beat{Findings: stuckFindings}
				now = s.Rec.ResumeBy.Add(time.Second)
			default:
				now = now.Add(time.Second)
				ev = Beat{Findings: stuckFindings, ResumedAt: now}
			}
			prev := s
			s, effs = Step(s, ev, now)
			rc.step(prev, s, ev, effs)
			if s.Rec.GaveUp || !has(effs, Back) || s.Rec.Owed == nil {
				t.Fatalf("seed %d: the give-up did not end: %s %+v", seed, show(effs), s.Rec)
			}
			backs++
		}
		// The watchdog stops: every run ends and reports.
		s, _ = Step(s, Close{Stop: true}, now)
		for len(d.live) > 0 {
			for n, l := range d.live {
				if l.prev != 0 && d.live[l.prev] != nil {
					continue
				}
				var effs []Effect
				if l.delivered {
					s, effs = Step(s, Ran{N: n, Source: l.source, Start: l.start, Result: Stopped}, now)
				} else {
					s, effs = Step(s, Pass{N: n, Source: l.source}, now)
					if has(effs, Deliver) {
						t.Fatalf("seed %d: delivered after the stop", seed)
					}
					if len(effs) == 0 {
						lost++
						admitted[n]--
					}
				}
				for _, e := range effs {
					if e.Kind == Count {
						fated++
						admitted[e.N]--
					}
				}
				delete(d.live, n)
			}
		}
		if s.Cur != nil && s.Cur.Phase != Held {
			t.Fatalf("seed %d: flight %+v current after every run ended", seed, s.Cur)
		}
		open := 0
		for n, c := range admitted {
			if c < 0 {
				t.Fatalf("seed %d: flight %d given two fates", seed, n)
			}
			open += c
		}
		if open != 0 || fated+lost != asked {
			t.Fatalf("seed %d: %d asked, %d fates, %d lost to the stop, %d with none", seed, asked, fated, lost, open)
		}
	}
	if gaveUps == 0 || backs == 0 || told == 0 {
		t.Fatalf("%d give-ups, %d ended by the end of a sequence, %d told: the sequences tested nothing of them", gaveUps, backs, told)
	}
	t.Logf("%d give-ups, %d told to the agent", gaveUps, told)
}

// stuckFindings is a pulse that sees a recoverable check at error.
var stuckFindings = []checks.Finding{{Check: checks.Inactivity, Level: checks.Error, Message: "no proof"}}

// recChecks checks recovery's promises across the wakeup's life, step by
// step.
type recChecks struct {
	seed      uint64
	t         *testing.T
	attempts  map[int]bool // flights that are recovery attempts
	delivered int          // recovery attempts delivered since recovery opened
	gaveUps   int
	told      map[time.Time]int // delivered wakeups that told a give-up, by its end
}

func (c *recChecks) step(prev, s State, ev Event, effs []Effect) {
	fail := func(format string, args ...any) {
		c.t.Helper()
		c.t.Fatalf("seed %d: %T: %s: %s", c.seed, ev, fmt.Sprintf(format, args...), show(effs))
	}
	if !prev.Rec.Active && !prev.Rec.GaveUp {
		c.delivered = 0
	}
	for _, e := range effs {
		switch e.Kind {
		case Attempted:
			c.attempts[e.N] = true
		case Deliver:
			if prev.Rec.GaveUp || s.Rec.GaveUp {
				fail("flight %d (%s) delivered while recovery has given up", e.N, e.Source)
			}
			if c.attempts[e.N] {
				c.delivered++
			}
		case GaveUp:
			c.gaveUps++
			if s.Rec.Attempt != s.Cfg.Recovery.MaxAttempts || c.delivered < s.Rec.Attempt {
				fail("gave up after %d attempts counted, %d delivered, of %d", s.Rec.Attempt, c.delivered, s.Cfg.Recovery.MaxAttempts)
			}
		}
	}
	// What is owed is carried by every wakeup that passes while it is owed,
	// and told by exactly one delivered wakeup: it is owed no more after
	// that one, and only that one or a newer give-up ends it.
	for _, e := range effs {
		if e.Kind == Deliver && e.Owed != prev.Owed() {
			fail("flight %d carries %+v, owed %+v", e.N, e.Owed, prev.Owed())
		}
	}
	if ran, ok := ev.(Ran); ok && ran.Result == OK && ran.Owed.GiveUp != nil {
		if c.told[ran.Owed.GiveUp.Ended]++; c.told[ran.Owed.GiveUp.Ended] > 1 {
			fail("the give-up ended at %v told twice", ran.Owed.GiveUp.Ended)
		}
		if o := s.Rec.Owed; o != nil && o.Ended.Equal(ran.Owed.GiveUp.Ended) {
			fail("the give-up is still owed after a delivered wakeup told it")
		}
	}
	if o := prev.Rec.Owed; o != nil && (s.Rec.Owed == nil || !s.Rec.Owed.Ended.Equal(o.Ended)) && c.told[o.Ended] == 0 && !has(effs, Back) {
		fail("the give-up ended at %v let go untold", o.Ended)
	}
	// Recovery never counts an attempt that was not delivered: at most the
	// one on its way to the gate.
	way := 0
	if s.onItsWay() {
		way = 1
	}
	if s.Rec.Attempt > c.delivered+way {
		fail("%d attempts counted, %d delivered, %d on its way", s.Rec.Attempt, c.delivered, way)
	}
	if has(effs, Attempted) && (!has(effs, Admit) || s.Rec.Attempt != prev.Rec.Attempt+1) {
		fail("an attempt with no takeover wakeup, or not counted once")
	}
}

// draw picks the next event a driver could see now.
func (d *sim) draw(r *rand.Rand, s State, now time.Time, sources []string, quiet bool) Event {
	var ready []int
	for n, l := range d.live {
		if l.prev == 0 || d.live[l.prev] == nil {
			ready = append(ready, n)
		}
	}
	if len(ready) > 0 && (quiet || r.IntN(3) == 0) {
		n := ready[r.IntN(len(ready))]
		l := d.live[n]
		if !l.delivered {
			return Pass{N: n, Source: l.source, Facts: Facts{
				Held: r.IntN(10) == 0, Spread: r.IntN(10) == 0, BreakerOpen: r.IntN(10) == 0,
				ProbeOut: r.IntN(10) == 0, Spent: r.IntN(10) == 0, CapFull: r.IntN(10) == 0,
			}}
		}
		res := Result(r.IntN(int(Stopped)))
		if l.ended {
			res = TakenOver
		} else if res == TakenOver {
			res = Failed
		}
		return Ran{N: n, Source: l.source, Start: l.start, Result: res, Owed: l.owed}
	}
	if quiet {
		return nil
	}
	back := func() time.Time { return now.Add(-time.Duration(r.IntN(20)) * time.Second) }
	if r.IntN(12) == 0 {
		d.stuck = !d.stuck
	}
	switch r.IntN(11) {
	case 0, 1, 2:
		src := sources[r.IntN(len(sources))]
		return Ask{Source: src, Takeover: (src == Recovery || src == Feedback) && r.IntN(2) == 0,
			Outside: r.IntN(15) == 0, Paused: r.IntN(15) == 0, Spent: r.IntN(15) == 0, CapFull: r.IntN(15) == 0}
	case 3:
		return Pulse{Now: now, Paused: r.IntN(10) == 0, LastLog: back(), LastIntrospection: back(), NewestProof: back()}
	case 4:
		b := back()
		return Turn{Begun: b, End: b.Add(time.Duration(r.IntN(20)) * time.Second)}
	case 5:
		return Proof{At: back()}
	case 6:
		return Release{}
	case 7, 8, 9:
		b := Beat{Asking: r.IntN(8) == 0, Paused: r.IntN(30) == 0, Facts: Facts{
			Held: r.IntN(12) == 0, BreakerOpen: r.IntN(12) == 0, Spent: r.IntN(12) == 0, CapFull: r.IntN(12) == 0,
		}}
		if r.IntN(20) == 0 {
			b.ResumedAt = now
		}
		if d.stuck {
			b.Findings = stuckFindings
		}
		return b
	}
	if r.IntN(4) == 0 {
		if r.IntN(2) == 0 {
			return Wait{Quiet: &Quiet{Kind: "rate_limit", At: now, Until: now.Add(time.Minute)}}
		}
		return Wait{}
	}
	return nil
}

// answers reports whether ev may end the working stretch: an answer (a
// run's success, a turn, a log where logs answer) or a wait for the
// model's service.
func answers(ev Event, cfg Config) bool {
	switch e := ev.(type) {
	case Ran:
		return cfg.RunIsTheWork && e.Result == OK
	case Turn, Wait:
		return true
	case Pulse:
		return !cfg.RunIsTheWork
	}
	return false
}
