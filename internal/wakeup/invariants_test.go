package wakeup

import (
	"math/rand/v2"
	"testing"
	"time"
)

// sim is a driver as the daemon is one: it starts a flight's run only once
// the run it replaces is gone, and reports each run's end.
type sim struct {
	live map[int]*run // admitted flights whose run has not returned
}

type run struct {
	source    string
	prev      int
	delivered bool
	ended     bool // an End effect reached it
	start     time.Time
}

// TestStepInvariants drives random sequences of events through the machine,
// as a driver would, and checks after every step what must hold whatever
// the order.
func TestStepInvariants(t *testing.T) {
	sources := []string{Schedule, Idle, Recovery, Feedback}
	cfgs := []Config{execCfg, tmuxCfg, {Scheduled: true}, {RunIsTheWork: true}}
	for seed := range uint64(300) {
		r := rand.New(rand.NewPCG(seed, 31))
		cfg := cfgs[seed%uint64(len(cfgs))]
		s := New(cfg, t0)
		now := t0
		d := sim{live: map[int]*run{}}
		asked, fated, admitted, lost := 0, 0, map[int]int{}, 0
		ends := map[int]int{}
		for i := range 400 {
			now = now.Add(time.Duration(r.IntN(5000)) * time.Millisecond)
			ev := d.draw(r, s, now, sources, seed%2 == 0 && i > 350) // odd seeds stop with runs alive
			if ev == nil {
				continue
			}
			if _, ok := ev.(Ask); ok {
				asked++
			}
			prev := s
			var effs []Effect
			s, effs = Step(s, ev, now)
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
					d.live[e.N].delivered, d.live[e.N].start = true, now
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
		return Ran{N: n, Source: l.source, Start: l.start, Result: res}
	}
	if quiet {
		return nil
	}
	back := func() time.Time { return now.Add(-time.Duration(r.IntN(20)) * time.Second) }
	switch r.IntN(8) {
	case 0, 1, 2:
		src := sources[r.IntN(len(sources))]
		return Ask{Source: src, Takeover: (src == Recovery || src == Feedback) && r.IntN(2) == 0,
			Outside: r.IntN(15) == 0, Paused: r.IntN(15) == 0, GaveUp: r.IntN(15) == 0, Spent: r.IntN(15) == 0, CapFull: r.IntN(15) == 0}
	case 3:
		return Pulse{Now: now, Paused: r.IntN(10) == 0, LastLog: back(), LastIntrospection: back(), NewestProof: back()}
	case 4:
		b := back()
		return Turn{Begun: b, End: b.Add(time.Duration(r.IntN(20)) * time.Second)}
	case 5:
		return Proof{At: back()}
	case 6:
		return Release{}
	}
	if r.IntN(4) == 0 {
		return Wait{}
	}
	return nil
}

func has(effs []Effect, k Kind) bool {
	for _, e := range effs {
		if e.Kind == k {
			return true
		}
	}
	return false
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
