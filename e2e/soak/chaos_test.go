//go:build soak

package soak

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"syscall"
	"time"
)

// act is one chaos action of the timetable, at its offset from the start.
type act struct {
	at, took time.Duration
	kind     string
}

// timetable draws the soak's chaos from its seed, scaled to its length:
// per ten minutes 14 reloads (5 aimed at a stalled run), 8 kill -9
// restarts (half aimed at a hung run with its tool child), 2 full disks of
// 30 s (one with a run started inside it, then a kill -9 and a restart
// while it is full), 3 pauses, 2 failure bursts, a broker outage; the cap
// lowered near the end. The actions are laid one after the other with
// random gaps; what does not fit a short soak is left out by priority (the
// faults first), and said.
func (s *soak) timetable() []act {
	per := func(n int) int { return max(1, int(float64(n)*s.dur.Seconds()/600+0.5)) }
	spell := s.spell()
	kinds := []struct {
		kind string
		n    int
		took time.Duration
	}{
		{"disk-kill", 1, spell}, {"reload-stall", per(5), 2 * s.hour}, {"kill-hang", per(4), 2*s.hour + 3*time.Second},
		{"disk", per(1), spell}, {"burst", per(2), 4 * s.hour}, {"broker", 1, 20 * time.Second},
		{"pause-for", per(1), 15 * time.Second}, {"pause", per(2), 17 * time.Second},
		{"kill", per(4), 3 * time.Second}, {"reload", per(9), 0},
	}
	avail := s.dur - 60*time.Second // 15 s before the first, the last 45 s calm
	var chosen []act
	var used time.Duration
	for _, k := range kinds {
		if (k.kind == "disk" || k.kind == "disk-kill") && s.diskNote != "" || k.kind == "broker" && s.broker == nil {
			continue
		}
		for range k.n {
			if cost := k.took + s.hour; used+cost <= avail {
				chosen = append(chosen, act{took: cost, kind: k.kind})
				used += cost
			} else {
				s.note("left out", k.kind+": no room in a soak this short")
			}
		}
	}
	s.rng.Shuffle(len(chosen), func(i, j int) { chosen[i], chosen[j] = chosen[j], chosen[i] })
	// The slack, cut at random points, goes between the actions.
	slack := avail - used
	cuts := make([]time.Duration, len(chosen))
	for i := range cuts {
		cuts[i] = time.Duration(s.rng.Int64N(int64(slack) + 1))
	}
	slices.Sort(cuts)
	at := 15 * time.Second
	for i := range chosen {
		chosen[i].at = at + cuts[i]
		at += chosen[i].took
	}
	return append(chosen, act{at: s.dur * 8 / 10, kind: "lower-cap"})
}

// drive carries out the timetable, one action after the other (an action
// due while another lasts comes after it), then waits out the duration.
func (s *soak) drive() {
	plan := s.timetable()
	for _, a := range plan {
		if wait := time.Until(s.begin.Add(a.at)); wait > 0 {
			time.Sleep(wait)
		}
		if time.Since(s.begin) > s.dur-20*time.Second {
			s.note("skipped", a.kind+": past the end")
			continue
		}
		s.do(a.kind)
		time.Sleep(s.hour) // settle
	}
	if wait := time.Until(s.begin.Add(s.dur)); wait > 0 {
		time.Sleep(wait)
	}
}

func (s *soak) do(kind string) {
	switch kind {
	case "reload":
		s.hup("")
	case "reload-stall":
		if s.force("stall", 3*s.hour) {
			time.Sleep(s.hour / 2)
			s.hup("a stalled run in flight")
		}
	case "kill", "kill-hang":
		detail := "any moment"
		if kind == "kill-hang" {
			if !s.force("hang", 3*s.hour) {
				return
			}
			time.Sleep(s.hour / 2) // its tool child is alive
			detail = "a hung run and its tool child in flight"
		}
		s.kill9()
		s.note("kill -9", detail)
		time.Sleep(time.Duration(300+s.rng.IntN(3700)) * time.Millisecond)
		s.startWatchdog()
		s.note("restart", fmt.Sprintf("watchdog %d", s.wdN))
	case "pause", "pause-for":
		args := []string{"pause", "-c", s.cfgPath, "--reason", "soak"}
		d := time.Duration(12+s.rng.IntN(9)) * time.Second
		if kind == "pause-for" {
			d = 15 * time.Second
			args = append(args, "--for", "15s")
		}
		from := time.Now()
		out, err := exec.Command(filepath.Join(binDir, "watchdog"), args...).CombinedOutput()
		s.note(kind, fmt.Sprintf("%s: %s %v", d, trimSpace(out), err))
		time.Sleep(d)
		if kind == "pause" {
			out, err = exec.Command(filepath.Join(binDir, "watchdog"), "resume", "-c", s.cfgPath).CombinedOutput()
			s.note("resume", fmt.Sprintf("%s %v", trimSpace(out), err))
		}
		s.mu.Lock()
		s.paused = append(s.paused, [2]time.Time{from, time.Now().Add(s.pulse)})
		s.mu.Unlock()
	case "burst":
		s.writeForce("fail!")
		s.note("burst", "every run fails for 4 agent hours")
		time.Sleep(4 * s.hour)
		os.Remove(filepath.Join(s.run, "force"))
	case "disk", "disk-kill":
		s.fullDisk(kind == "disk-kill")
	case "broker":
		from := time.Now()
		s.broker.Stop()
		s.note("broker", "stopped for 20s")
		time.Sleep(20 * time.Second)
		s.broker.Restart()
		s.note("broker", "restarted")
		s.mu.Lock()
		s.outages = append(s.outages, [2]time.Time{from, time.Now()})
		s.mu.Unlock()
	case "lower-cap":
		used := s.lastPulse().CapUsed
		s.capLimit = used + 12
		s.writeConfig()
		s.hup(fmt.Sprintf("daily_cap lowered to %d (used %d)", s.capLimit, used))
	}
}

func (s *soak) hup(detail string) {
	_ = s.wd.Signal(syscall.SIGHUP)
	s.note("SIGHUP", detail)
}

// force makes the next run behave as beh, and waits until it runs.
func (s *soak) force(beh string, within time.Duration) bool {
	n := len(readRuns(s.run))
	s.writeForce(beh)
	ok := s.waitFor("a forced "+beh+" run", within, func() bool {
		runs := readRuns(s.run)
		for _, r := range runs[min(n, len(runs)):] {
			if r.Ev == "start" && r.Behaviour == beh {
				return true
			}
		}
		return false
	})
	if !ok {
		os.Remove(filepath.Join(s.run, "force"))
		s.note("skipped", "no "+beh+" run came")
	}
	return ok
}

func (s *soak) writeForce(beh string) {
	if err := os.WriteFile(filepath.Join(s.run, "force"), []byte(beh), 0o644); err != nil {
		s.t.Fatal(err)
	}
}

// fullDisk fills the small disk for 30 s (15 s in a short soak). With
// kill, a run starts while it is full, then the watchdog is killed and
// restarted inside the spell: the cap's and the ledger's counts and the
// run's record must outlive it.
func (s *soak) fullDisk(kill bool) {
	spell := s.spell()
	from := time.Now()
	filler := filepath.Join(s.disk, "filler.bin")
	f, err := os.Create(filler)
	if err != nil {
		s.t.Fatal(err)
	}
	for chunk := make([]byte, 256<<10); ; {
		n, err := f.Write(chunk)
		if err == nil {
			continue
		}
		if !errors.Is(err, syscall.ENOSPC) {
			s.t.Fatal(err)
		}
		if n == 0 && len(chunk) == 1 {
			break
		}
		chunk = chunk[:max(1, len(chunk)/2)]
	}
	f.Close()
	s.note("disk full", fmt.Sprintf("for %s", spell))
	if kill && s.force("hang", 3*s.hour) {
		time.Sleep(s.hour / 2)
		s.kill9()
		s.note("kill -9", "a hung run started on the full disk in flight")
		time.Sleep(time.Second)
		s.startWatchdog()
		s.note("restart", fmt.Sprintf("watchdog %d, the disk still full", s.wdN))
	}
	if rest := time.Until(from.Add(spell)); rest > 0 {
		time.Sleep(rest)
	}
	os.Remove(filler)
	s.note("disk freed", "")
	s.mu.Lock()
	s.spells = append(s.spells, [2]time.Time{from, time.Now()})
	s.mu.Unlock()
}

func (s *soak) lastPulse() pulseRec {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.pulses) == 0 {
		return pulseRec{}
	}
	return s.pulses[len(s.pulses)-1]
}

// readRuns reads the agents' run records.
func readRuns(run string) []runRec {
	var out []runRec
	readLines(filepath.Join(run, "ledger", "runs.jsonl"), func(b []byte) {
		var r runRec
		if json.Unmarshal(b, &r) == nil {
			out = append(out, r)
		}
	})
	return out
}

func readLines(path string, each func([]byte)) {
	f, err := os.Open(path)
	if err != nil {
		return
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 8<<20)
	for sc.Scan() {
		each(sc.Bytes())
	}
}

// spell is how long a disk stays full: 30 s, 15 s in a soak under 5 min.
func (s *soak) spell() time.Duration {
	if s.dur < 5*time.Minute {
		return 15 * time.Second
	}
	return 30 * time.Second
}
