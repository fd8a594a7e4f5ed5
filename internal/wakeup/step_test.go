package wakeup

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/checks"
	"github.com/ai-heart/ai-heart/internal/recovery"
	"github.com/ai-heart/ai-heart/internal/state"
)

var t0 = time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC)

func at(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }

var (
	execCfg = Config{Scheduled: true, RunIsTheWork: true}
	tmuxCfg = Config{Scheduled: true, Holds: true}
)

// show writes effects as "kind:source:outcome" words, for tables.
func show(effs []Effect) string {
	var w []string
	for _, e := range effs {
		s := e.Kind.String()
		if e.Source != "" {
			s += ":" + e.Source
		}
		if e.Outcome != "" {
			s += ":" + e.Outcome
		}
		w = append(w, s)
	}
	return strings.Join(w, " ")
}

// flying is a machine with flight 1 from source in phase p, begun at 0.
func flying(cfg Config, source string, p Phase) State {
	s := New(cfg, t0)
	s.LastN, s.Cur = 1, &Flight{N: 1, Source: source, At: at(0), Phase: p}
	return s
}

func TestStep(t *testing.T) {
	idle := New(execCfg, t0)
	idle.Idle, idle.LastWakeup = true, at(5)
	gaveUp := New(execCfg, t0)
	gaveUp.Rec.GaveUp = true
	tests := []struct {
		name  string
		in    State
		ev    Event
		want  string // the effects
		check func(State) error
	}{
		{"asked with nothing in flight: admitted", New(execCfg, t0), Ask{Source: Schedule}, "admit:schedule", func(s State) error {
			return want(s.Cur != nil && s.Cur.Phase == Running && s.Cur.At.Equal(at(9)), "a running flight begun now, got %+v", s.Cur)
		}},
		{"outside active hours", New(execCfg, t0), Ask{Source: Schedule, Outside: true, Paused: true}, "count:schedule:outside_active_hours", nil},
		{"paused", New(execCfg, t0), Ask{Source: Idle, Paused: true}, "count:idle:paused", nil},
		{"recovery gave up", gaveUp, Ask{Source: Schedule}, "count:schedule:skipped_gave_up", nil},
		{"gave up after it was asked for: refused at the gate", func() State { s := flying(execCfg, Schedule, Running); s.Rec = gaveUp.Rec; return s }(),
			Pass{N: 1, Source: Schedule}, "count:schedule:skipped_gave_up", noFlight},
		{"a takeover that cannot pass ends nothing: the budget", flying(execCfg, Schedule, Running), Ask{Source: Recovery, Takeover: true, Spent: true, CapFull: true}, "count:recovery:dropped_budget spent:recovery", func(s State) error {
			return want(s.Cur != nil && s.Cur.N == 1, "the run in flight was ended: %+v", s.Cur)
		}},
		{"a takeover that cannot pass ends nothing: the cap", flying(execCfg, Schedule, Running), Ask{Source: Recovery, Takeover: true, CapFull: true}, "count:recovery:dropped_cap", nil},
		{"closed: no fate, the next agent asks again", State{Closed: true}, Ask{Source: Schedule}, "", nil},
		{"one in flight: coalesced", flying(execCfg, Schedule, Running), Ask{Source: Idle}, "count:idle:coalesced", nil},
		{"a held one coalesces too", flying(tmuxCfg, Schedule, Held), Ask{Source: Schedule}, "count:schedule:coalesced", nil},
		{"a takeover ends the run in flight and waits for it", flying(execCfg, Schedule, Running), Ask{Source: Recovery, Takeover: true}, "end:schedule:taken_over admit:recovery", func(s State) error {
			return want(s.Cur.N == 2 && s.Cur.Prev == 1 && s.Cur.Phase == Queued, "flight 2 queued behind 1, got %+v", s.Cur)
		}},
		{"a takeover of a held wakeup waits for nothing", flying(tmuxCfg, Schedule, Held), Ask{Source: Feedback, Takeover: true}, "end:schedule:taken_over admit:feedback", func(s State) error {
			return want(s.Cur.Prev == 0 && s.Cur.Phase == Running, "flight 2 running, got %+v", s.Cur)
		}},
		{"passes: books the cap, starts the work, delivers", flying(execCfg, Schedule, Running), Pass{N: 1, Source: Schedule}, "book:schedule worked deliver:schedule", func(s State) error {
			w, since := s.Work.Working()
			return want(w && since.Equal(at(9)), "working since now, got %v %v", w, since)
		}},
		{"tmux passes: working only once delivered", flying(tmuxCfg, Schedule, Running), Pass{N: 1, Source: Schedule}, "book:schedule deliver:schedule", func(s State) error {
			w, _ := s.Work.Working()
			return want(!w, "working before the delivery")
		}},
		{"a queued takeover begins when it passes", func() State {
			s := flying(execCfg, Recovery, Queued)
			s.Cur.Prev = 7
			return s
		}(), Pass{N: 1, Source: Recovery}, "book:recovery worked deliver:recovery", func(s State) error {
			return want(s.Cur.At.Equal(at(9)) && s.Cur.Prev == 0, "begun now, got %+v", s.Cur)
		}},
		{"taken over before it began: coalesced", flying(execCfg, Recovery, Running), Pass{N: 0, Source: Schedule}, "count:schedule:coalesced", nil},
		{"held by the service", flying(execCfg, Schedule, Running), Pass{N: 1, Source: Schedule, Facts: Facts{Held: true, CapFull: true}}, "count:schedule:held_service", noFlight},
		{"a scheduled wakeup spread over a limit's rest", flying(execCfg, Schedule, Running), Pass{N: 1, Source: Schedule, Facts: Facts{Spread: true}}, "count:schedule:held_service", noFlight},
		{"spreading holds the schedule only", flying(execCfg, Recovery, Running), Pass{N: 1, Source: Recovery, Facts: Facts{Spread: true}}, "book:recovery worked deliver:recovery", nil},
		{"the open breaker skips before the cap", flying(execCfg, Idle, Running), Pass{N: 1, Source: Idle, Facts: Facts{BreakerOpen: true, Spent: true, CapFull: true}}, "skip:idle count:idle:skipped_breaker", noFlight},
		{"the budget", flying(execCfg, Schedule, Running), Pass{N: 1, Source: Schedule, Facts: Facts{Spent: true, CapFull: true}}, "count:schedule:dropped_budget spent:schedule", noFlight},
		{"the cap", flying(execCfg, Schedule, Running), Pass{N: 1, Source: Schedule, Facts: Facts{CapFull: true, ProbeOut: true}}, "drop:schedule count:schedule:dropped_cap", noFlight},
		{"the probe is out: skipped, the cap untouched", flying(execCfg, Schedule, Running), Pass{N: 1, Source: Schedule, Facts: Facts{ProbeOut: true}}, "skip:schedule count:schedule:skipped_breaker", noFlight},
		{"an exec run's success answers", func() State { s := flying(execCfg, Schedule, Running); s.Work.delivered(at(0)); return s }(),
			Ran{N: 1, Source: Schedule, Start: at(0)}, "worked count:schedule:delivered", func(s State) error {
				w, _ := s.Work.Working()
				return want(!w && s.Cur == nil && s.LastWakeup.Equal(at(0)), "waiting, no flight, last wakeup at 0; got %v %+v", w, s.Cur)
			}},
		{"a capped run is no answer, and says what cut it", func() State { s := flying(execCfg, Schedule, Running); s.Work.delivered(at(0)); return s }(),
			Ran{N: 1, Source: Schedule, Start: at(0), Result: ToolCapped, Cut: checks.RunEnd{Kind: checks.EndToolCap, Detail: "50"}}, "worked count:schedule:tool_capped", func(s State) error {
				w, _ := s.Work.Working()
				return want(w && s.Work.Checks().Ended.Kind == checks.EndToolCap, "still working, ended by the tool cap; got %+v", s.Work.Checks())
			}},
		{"a taken-over run: its fate, not the new flight's end", func() State { s := flying(execCfg, Recovery, Queued); s.Cur.N, s.Cur.Prev = 2, 1; return s }(),
			Ran{N: 1, Source: Schedule, Start: at(0), Result: TakenOver}, "worked count:schedule:taken_over", func(s State) error {
				return want(s.Cur != nil && s.Cur.N == 2, "flight 2 still current, got %+v", s.Cur)
			}},
		{"a tmux delivery is held, working from its start", flying(tmuxCfg, Schedule, Running), Ran{N: 1, Source: Schedule, Start: at(0)}, "worked count:schedule:delivered", func(s State) error {
			w, since := s.Work.Working()
			return want(s.Cur.Phase == Held && w && since.Equal(at(0)), "held and working since 0; got %+v %v %v", s.Cur, w, since)
		}},
		{"a tmux wakeup that waited at a dialog begins when it went in", flying(tmuxCfg, Schedule, Running), Ran{N: 1, Source: Schedule, Start: at(6)}, "worked count:schedule:delivered", func(s State) error {
			w, since := s.Work.Working()
			// A turn begun while it waited (the person's answer) answers nothing.
			_, effs := Step(s, Turn{Begun: at(3), End: at(8)}, at(8))
			return want(s.Cur.Phase == Held && s.Cur.At.Equal(at(6)) && w && since.Equal(at(6)) && len(effs) == 0,
				"held and working since it went in (6), a turn begun at 3 no answer; got %+v %v %v %v", s.Cur, w, since, show(effs))
		}},
		{"a failed tmux delivery is over", flying(tmuxCfg, Schedule, Running), Ran{N: 1, Source: Schedule, Start: at(0), Result: Failed}, "worked count:schedule:failed", noFlight},
		{"a run the watchdog ended", flying(execCfg, Schedule, Running), Ran{N: 1, Source: Schedule, Start: at(0), Result: Stopped}, "count:schedule:failed", noFlight},
		{"a wakeup whose cause was gone once the pane let it in: nothing sent, no work begun", flying(tmuxCfg, Recovery, Running), Ran{N: 1, Source: Recovery, Start: at(0), Result: Moot}, "count:recovery:moot", func(s State) error {
			w, _ := s.Work.Working()
			return want(s.Cur == nil && !w && s.LastWakeup.IsZero(), "a flight, work or a last wakeup after a moot one: %+v %v %v", s.Cur, w, s.LastWakeup)
		}},
		{"an idle wakeup makes the agent idle", flying(execCfg, Idle, Running), Ran{N: 1, Source: Idle, Start: at(0)}, "worked count:idle:delivered", func(s State) error {
			return want(s.Idle, "not idle")
		}},
		{"a proof after the idle wakeup wakes", idle, Proof{At: at(6)}, "woke", nil},
		{"a proof from before it does not", idle, Proof{At: at(5)}, "", nil},
		{"a turn begun after the held wakeup answers it", withWork(flying(tmuxCfg, Schedule, Held), at(0)), Turn{Begun: at(1), End: at(8)}, "answered:schedule worked", noFlight},
		{"a turn begun before it answers nothing", withWork(flying(tmuxCfg, Schedule, Held), at(0)), Turn{Begun: at(0), End: at(8)}, "", nil},
		{"without hooks a log after it answers it", withWork(flying(tmuxCfg, Schedule, Held), at(0)), Pulse{Now: at(9), LastLog: at(3)}, "answered:schedule", func(s State) error {
			w, _ := s.Work.Working()
			return want(s.Cur == nil && !w, "still in flight or working")
		}},
		{"with hooks a log after it answers it too", withWork(flying(tmuxCfg, Schedule, Held), at(0)), Pulse{Now: at(9), LastLog: at(3)}, "answered:schedule", func(s State) error {
			w, _ := s.Work.Working()
			return want(s.Cur == nil && !w && s.Work.Answered().Equal(at(3)), "still in flight or working, or the answer not at the log: %+v", s.Work)
		}},
		{"an exec run's log answers nothing", withWork(flying(execCfg, Schedule, Running), at(0)), Pulse{Now: at(9), LastLog: at(3)}, "", func(s State) error {
			w, _ := s.Work.Working()
			return want(w, "a log answered an exec wakeup")
		}},
		{"waiting for the service ends the stretch", withWork(New(tmuxCfg, t0), at(0)), Wait{}, "worked", func(s State) error {
			w, _ := s.Work.Working()
			return want(!w, "still working")
		}},
		{"release ends a held wakeup", flying(tmuxCfg, Schedule, Held), Release{}, "", noFlight},
		{"release leaves a running one", flying(execCfg, Schedule, Running), Release{}, "", func(s State) error { return want(s.Cur != nil, "ended a running flight") }},
		{"stop ends the run in flight", flying(execCfg, Schedule, Running), Close{Stop: true}, "end:schedule:stopped", nil},
		{"stopped before it passed: no fate, nothing delivered", func() State { s := flying(execCfg, Schedule, Running); s.Closed, s.Stopped = true, true; return s }(), Pass{N: 1, Source: Schedule}, "", noFlight},
		{"a drain ends nothing", flying(execCfg, Schedule, Running), Close{}, "", func(s State) error { return want(s.Closed && s.Cur != nil, "drain ended the flight") }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, effs := Step(tc.in, tc.ev, at(9))
			if s := show(effs); s != tc.want {
				t.Fatalf("effects %q, want %q", s, tc.want)
			}
			if tc.check != nil {
				if err := tc.check(got); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

func want(ok bool, format string, args ...any) error {
	if ok {
		return nil
	}
	return fmt.Errorf(format, args...)
}

func noFlight(s State) error { return want(s.Cur == nil, "flight %+v still current", s.Cur) }

func withWork(s State, since time.Time) State { s.Work.delivered(since); return s }

func TestCarryKeepsTheStretch(t *testing.T) {
	s := withWork(flying(tmuxCfg, Schedule, Held), at(3))
	s.Idle, s.LastWakeup = true, at(3)
	s.Rec = recovery.State{GaveUp: true, Attempt: 2, Owed: &recovery.GiveUp{Ended: at(1)}}
	s.Quiet = &Quiet{Kind: "overloaded", Until: at(2)}
	n := s.Carry(Config{Scheduled: true, RunIsTheWork: true})
	if !n.Rec.GaveUp || n.Rec.Owed == nil || n.Quiet == nil {
		t.Fatalf("a reload forgot recovery or what is owed: %+v %+v", n.Rec, n.Quiet)
	}
	w, since := n.Work.Working()
	if n.Cur != nil || !w || !since.Equal(at(3)) || !n.Idle || !n.LastWakeup.Equal(at(3)) || n.LastN != 1 {
		t.Fatalf("carried %+v", n)
	}
	if n.Work.State().Mode != state.WorkWorking {
		t.Fatalf("mode %q", n.Work.State().Mode)
	}
}
