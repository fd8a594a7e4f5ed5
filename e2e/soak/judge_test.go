//go:build soak

package soak

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// judge checks the invariants on what the soak saw and prints the
// field's numbers; each broken invariant fails the test with what broke.
func (s *soak) judge() {
	t := s.t
	s.mu.Lock()
	defer s.mu.Unlock()
	runs := readRuns(s.run)
	starts, ends, terms := map[int]runRec{}, map[int]time.Time{}, map[int]time.Time{}
	var order []int
	for _, r := range runs {
		switch r.Ev {
		case "start":
			starts[r.PID] = r
			order = append(order, r.PID)
		case "end":
			ends[r.PID] = r.At
		case "sigterm":
			terms[r.PID] = r.At
		}
	}
	byBeh := map[string]int{}
	for _, p := range order {
		byBeh[starts[p].Behaviour]++
	}
	elapsed := time.Since(s.begin)
	agentHours := elapsed.Seconds() / s.hour.Seconds()
	fmt.Printf("soak: %s (%.0f agent hours, an agent hour is %s), %d watchdog processes, %d runs %v\n", elapsed.Round(time.Second), agentHours, s.hour, s.wdN, len(order), byBeh)
	counts := map[string]int{}
	for _, c := range s.chaos {
		counts[c.Kind]++
	}
	fmt.Printf("soak: chaos %v\n", counts)
	if s.diskNote != "" {
		fmt.Printf("soak: SKIPPED full disks: %s\n", s.diskNote)
	}
	if s.broker == nil {
		fmt.Printf("soak: SKIPPED broker outage: mosquitto is not installed\n")
	}

	// Pulses: no gap within a process longer than two intervals.
	var maxGap time.Duration
	for i := 1; i < len(s.pulses); i++ {
		a, b := s.pulses[i-1], s.pulses[i]
		if a.PID != b.PID {
			continue
		}
		if g := b.At.Sub(a.At); g > maxGap {
			maxGap = g
		}
	}
	fmt.Printf("soak: %d pulses seen, largest gap within a process %s (pulse %s)\n", len(s.pulses), maxGap.Round(time.Millisecond), s.pulse)
	if len(s.pulses) == 0 {
		t.Errorf("no pulse seen on the status stream")
	}
	if maxGap > 2*s.pulse {
		t.Errorf("pulse gap %s within one watchdog process: more than two intervals (%s)", maxGap, 2*s.pulse)
	}

	// One run at a time.
	most := 0
	for _, sc := range s.scans {
		if len(sc.Groups) > most {
			most = len(sc.Groups)
		}
		if len(sc.Groups) > 1 {
			t.Errorf("two runs at once at %.1fs: process groups %v alive", sc.At.Sub(s.begin).Seconds(), sc.Groups)
			break
		}
	}
	for _, p := range order {
		if o := starts[p].Others; len(o) > 0 {
			t.Errorf("run %d started beside other live agents %v", p, o)
		}
	}
	fmt.Printf("soak: %d process scans, at most %d run alive at once\n", len(s.scans), most)

	// Stalls: alerted by the error threshold plus a pulse, the run taken
	// over at once (a reload pending or not), recovered afterwards.
	// Recovery that gave up (three attempts failed) takes over no more
	// until resume_after: stalls near a give-up are not judged.
	var gaveUp, attempts []time.Time
	readLines(s.alerts, func(b []byte) {
		var a struct {
			Time    time.Time `json:"time"`
			Check   string    `json:"check"`
			Message string    `json:"message"`
		}
		switch {
		case json.Unmarshal(b, &a) != nil:
		case a.Check == "gave_up":
			gaveUp = append(gaveUp, a.Time)
		case a.Check == "recovery" && strings.HasPrefix(a.Message, "recovery attempt"):
			attempts = append(attempts, a.Time)
		}
	})
	stalls, judged := 0, 0
	var worstLate, worstTake time.Duration
	bestLate := time.Duration(1 << 62)
	for _, p := range order {
		r := starts[p]
		if r.Behaviour != "stall" {
			continue
		}
		// A recovery attempt's own run: the next attempt comes
		// max_wait_cycles pulses after it.
		bound := s.pulse + 2*time.Second
		if s.overlaps(r.At.Add(-3*time.Second), r.At.Add(time.Second), attempts) {
			bound += 5 * s.pulse
		}
		stalls++
		from, to := r.At.Add(-s.hour), r.At.Add(s.errAfter+3*s.hour/2)
		if to.After(s.begin.Add(elapsed)) || s.overlaps(from, to, s.kills) || s.overlapsSpans(from, to, s.paused) || s.burstNear(from, to) || s.overlaps(from.Add(-8*s.hour), to, gaveUp) {
			continue
		}
		judged++
		// The error of this stall: after a pulse below it (one before the
		// wakeup may still show the last stall's).
		errAt, okAt, below, continuing := time.Time{}, time.Time{}, false, false
		for _, pl := range s.pulses {
			if !pl.At.After(r.At.Add(-s.pulse)) {
				continue
			}
			below = below || pl.Inactivity != "error"
			if errAt.IsZero() && pl.At.After(r.At) && pl.Inactivity == "error" {
				// Never below since before the wakeup: the error goes on from
				// the run before (a failed run keeps the working stretch).
				errAt, continuing = pl.At, !below
			} else if !errAt.IsZero() && pl.At.After(errAt) && pl.Inactivity == "ok" {
				okAt = pl.At
				break
			}
		}
		late := errAt.Sub(r.At.Add(s.errAfter))
		switch {
		case errAt.IsZero():
			t.Errorf("stall %d (at %.1fs): no inactivity error", p, r.At.Sub(s.begin).Seconds())
			continue
		case !continuing && late > s.pulse+500*time.Millisecond:
			t.Errorf("stall %d: inactivity error %s past its threshold; want within a pulse (%s)", p, late, s.pulse)
		case okAt.IsZero():
			t.Errorf("stall %d: never recovered (inactivity never ok again after the error)", p)
		}
		if !continuing {
			worstLate, bestLate = max(worstLate, late), min(bestLate, late)
		}
		gone := terms[p]
		if gone.IsZero() {
			gone = ends[p]
		}
		if take := gone.Sub(errAt); !gone.IsZero() && take > worstTake {
			worstTake = take
		}
		if take := gone.Sub(errAt); gone.IsZero() || take > bound {
			t.Errorf("stall %d: its run ended %s after the inactivity error; recovery's takeover should end it within %s (a reload pending or not)", p, take, bound)
		}
	}
	fmt.Printf("soak: %d stalls (%d judged): error %s to %s past the threshold (from the run's own start, a little after its wakeup), run taken over at most %s after it; %.2f stalls per 24 agent-hours\n",
		stalls, judged, min(bestLate, worstLate).Round(time.Millisecond), worstLate.Round(time.Millisecond), worstTake.Round(time.Millisecond), float64(stalls)/(agentHours/24))

	s.judgeRunAlerts()
	s.judgeWrites()
	s.judgeCounts(order, starts, ends, terms)
	s.judgeMemory()
	s.judgeOnTime(order, starts, ends)
	s.fieldNumbers(stalls)
	s.judgeNothingLeft()
}

func (s *soak) overlaps(from, to time.Time, at []time.Time) bool {
	for _, a := range at {
		if !a.Before(from) && !a.After(to) {
			return true
		}
	}
	return false
}

func (s *soak) overlapsSpans(from, to time.Time, spans [][2]time.Time) bool {
	for _, sp := range spans {
		if sp[0].Before(to) && sp[1].After(from) {
			return true
		}
	}
	return false
}

// burstNear: a failure burst near (the breaker opens, and stays open up
// to two cooldowns after it: recovery waits for it).
func (s *soak) burstNear(from, to time.Time) bool {
	for _, c := range s.chaos {
		if c.Kind == "burst" && c.At.Before(to) && c.At.Add(10*s.hour).After(from) {
			return true
		}
	}
	return false
}

// judgeWrites: every acknowledged checkpoint and activity log is on disk,
// whole; no temp file is left.
func (s *soak) judgeWrites() {
	acked, refused, lost := 0, 0, 0
	readLines(filepath.Join(s.run, "ledger", "acks.jsonl"), func(b []byte) {
		var a ackRec
		if json.Unmarshal(b, &a) != nil {
			return
		}
		if !a.OK {
			refused++
			return
		}
		acked++
		p := a.Path
		if !filepath.IsAbs(p) {
			p = filepath.Join(s.ws, p)
		}
		body, err := os.ReadFile(p)
		if err != nil || !strings.Contains(string(body), a.Token+"\n") && !strings.Contains(string(body), a.Token) {
			lost++
			if lost <= 5 {
				s.t.Errorf("acknowledged %s %s lost or torn: %s (%v)", a.Tool, a.Token, a.Path, err)
			}
		}
	})
	temps := 0
	filepath.WalkDir(s.ws, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && (strings.Contains(d.Name(), ".tmp") || strings.HasPrefix(d.Name(), ".renameio")) {
			temps++
			s.t.Errorf("temp file left: %s", p)
		}
		return nil
	})
	fmt.Printf("soak: %d writes acknowledged, %d lost or torn; %d calls refused or unanswered; %d temp files left\n", acked, lost, refused, temps)
}

// judgeNothingLeft: once the last watchdog stopped, no run, tool child or
// mcp-heart of the soak is alive.
func (s *soak) judgeNothingLeft() {
	var left []int
	ok := s.waitFor("every run's process gone", 10*time.Second, func() bool {
		left = left[:0]
		dirs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
		for _, d := range dirs {
			var pid int
			fmt.Sscan(filepath.Base(filepath.Dir(d)), &pid)
			g, _, alive := procStat(pid)
			if !alive || pid == os.Getpid() {
				continue
			}
			b, _ := os.ReadFile(d)
			if s.known[g] || strings.Contains(string(b), s.run) || strings.Contains(string(b), s.ws) {
				left = append(left, pid)
			}
		}
		return len(left) == 0
	})
	if !ok {
		s.t.Errorf("left running after the watchdog stopped: %v", left)
		for _, p := range left {
			_ = syscall.Kill(p, syscall.SIGKILL)
		}
	}
}

// judgeRunAlerts: every kill -9 with a hung run's tool child alive (on a
// full disk too) is followed by the next watchdog ending that run's group
// and saying so (a "run" alert).
func (s *soak) judgeRunAlerts() {
	var alerts []time.Time
	readLines(s.alerts, func(b []byte) {
		var a struct {
			Time  time.Time `json:"time"`
			Check string    `json:"check"`
		}
		if json.Unmarshal(b, &a) == nil && a.Check == "run" {
			alerts = append(alerts, a.Time)
		}
	})
	want, got := 0, 0
	for _, c := range s.chaos {
		if c.Kind != "kill -9" || !strings.Contains(c.Detail, "hung") {
			continue
		}
		want++
		for _, at := range alerts {
			if !at.Before(c.At.Add(-time.Second)) && at.Before(c.At.Add(15*time.Second)) {
				got++
				break
			}
		}
	}
	fmt.Printf("soak: %d kill -9 with a tool child alive, %d followed by the run's end and its alert\n", want, got)
	if got < want {
		s.t.Errorf("%d of %d kill -9 with a run's tool child alive had no \"run\" alert from the next watchdog (the run left alive, unsupervised)", want-got, want)
	}
}
