package wakeup

import "testing"

// Under tmux and inbox the first log after an idle wakeup is its answer
// ("nothing worth doing now"): the agent stays idle, and what comes next
// wakes it at once. A proof after that answer ends idleness, and so does a
// log that answers a later wakeup of another kind.
func TestTheIdleWakeupsAnswerKeepsTheAgentIdle(t *testing.T) {
	idle := New(tmuxCfg, t0)
	idle.Idle, idle.LastIdle, idle.LastWakeup = true, true, at(5)

	s, _ := idle.pulse(Pulse{Now: at(8), LastLog: at(7), NewestProof: at(7)})
	if !s.Idle {
		t.Fatal("the idle wakeup's own answer ended idleness")
	}
	s, effs := s.pulse(Pulse{Now: at(12), LastLog: at(7), NewestProof: at(11)})
	if s.Idle || show(effs) != "woke" {
		t.Fatalf("a checkpoint after the answer: idle %v, effects %q", s.Idle, show(effs))
	}

	later := idle
	later.LastIdle, later.LastWakeup = false, at(6) // a scheduled wakeup came since
	if s, _ := later.pulse(Pulse{Now: at(8), LastLog: at(7), NewestProof: at(7)}); s.Idle {
		t.Fatal("a log answering a scheduled wakeup kept the agent idle")
	}

	exec := idle
	exec.Cfg = execCfg // a run's end answers: a log is work
	if s, _ := exec.pulse(Pulse{Now: at(8), LastLog: at(7), NewestProof: at(7)}); s.Idle {
		t.Fatal("under exec a log kept the agent idle")
	}
}
