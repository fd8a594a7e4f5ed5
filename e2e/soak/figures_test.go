//go:build soak

package soak

import (
	"fmt"
	"slices"
	"time"

	"github.com/ai-heart/ai-heart/internal/day"
)

// judgeMemory: the longest-lived watchdog's anonymous RSS and Go heap stay
// flat once warm (the last third against the middle one).
func (s *soak) judgeMemory() {
	by := map[int][]memRec{}
	for _, m := range s.mem {
		by[m.PID] = append(by[m.PID], m)
	}
	var long []memRec
	for _, ms := range by {
		if len(ms) > len(long) {
			long = ms
		}
	}
	if len(long) < 30 {
		fmt.Printf("soak: memory not judged: the longest watchdog process lived %d samples (under a minute)\n", len(long))
		return
	}
	third := len(long) / 3
	med := func(ms []memRec, f func(memRec) int64) int64 {
		var v []int64
		for _, m := range ms {
			if x := f(m); x > 0 {
				v = append(v, x)
			}
		}
		if len(v) == 0 {
			return 0
		}
		slices.Sort(v)
		return v[len(v)/2]
	}
	anon := func(m memRec) int64 { return m.Anon }
	heap := func(m memRec) int64 { return m.HeapInuseKiB }
	a1, a2 := med(long[third:2*third], anon), med(long[2*third:], anon)
	h1, h2 := med(long[third:2*third], heap), med(long[2*third:], heap)
	fmt.Printf("soak: watchdog %d over %s: anonymous RSS %d -> %d KiB, heap in use %d -> %d KiB (median of the middle and last thirds)\n",
		long[0].PID, long[len(long)-1].At.Sub(long[0].At).Round(time.Second), a1, a2, h1, h2)
	if a2 > a1*5/4+1024 {
		s.t.Errorf("the watchdog's anonymous RSS grew from %d to %d KiB", a1, a2)
	}
	if h1 > 0 && h2 > h1*3/2+1024 {
		s.t.Errorf("the watchdog's heap in use grew from %d to %d KiB", h1, h2)
	}
}

// judgeOnTime: of the wakeups the schedule promised for a moment with no
// run in flight and no chaos near, how many started a run within a pulse
// and a second.
func (s *soak) judgeOnTime(order []int, starts map[int]runRec, ends map[int]time.Time) {
	promised := map[time.Time]bool{}
	for _, pl := range s.pulses {
		if pl.Next != nil && !pl.InFlight && pl.Next.Sub(pl.At) < s.pulse {
			promised[*pl.Next] = true // due within the next pulse: a firm promise
		}
	}
	owed, onTime := 0, 0
	for p := range promised {
		from, to := p.Add(-2*s.hour), p.Add(2*s.hour)
		if to.After(time.Now()) || s.overlaps(from, to, s.kills) || s.overlapsSpans(from, to, s.paused) || s.overlapsSpans(from, to, s.spells) || s.burstNear(from, to) {
			continue
		}
		busy := false
		for _, q := range order {
			st, e := starts[q].At, ends[q]
			if st.Before(p.Add(-time.Second)) && (e.IsZero() || e.After(p.Add(-time.Second))) {
				busy = true
			}
		}
		if busy {
			continue
		}
		owed++
		for _, q := range order {
			if d := starts[q].At.Sub(p); d > -time.Second && d <= s.pulse+time.Second {
				onTime++
				break
			}
		}
	}
	if owed > 0 {
		fmt.Printf("soak: wakeups on time: %d of %d (%.1f %%) started a run within a pulse and a second of the schedule's promise\n", onTime, owed, 100*float64(onTime)/float64(owed))
	}
}

// fieldNumbers prints the field's numbers as the watchdog measures them
// from its day files (status --json's numbers), per 24 agent hours too.
func (s *soak) fieldNumbers(stalls int) {
	f, err := day.LoadField(s.agentDir, time.UTC, time.Now())
	if err != nil {
		s.t.Errorf("the field's numbers: %v", err)
		return
	}
	n := f.Today
	agentHours := n.Hours * 3600 / s.hour.Seconds()
	per24 := func(k int) float64 {
		if agentHours == 0 {
			return 0
		}
		return float64(k) / (agentHours / 24)
	}
	onTime := 0.0
	if n.Scheduled > 0 {
		onTime = 100 * float64(n.OnTime) / float64(n.Scheduled)
	}
	fmt.Printf("soak: the field's numbers (the watchdog's day files): %.2f hours supervised (%.0f agent hours); %d stalls of the stand-in, %.2f per 24 agent hours; %d unrecovered (give-ups), %.2f per 24 agent hours; scheduled wakeups on time %d of %d (%.1f %%); %d interventions\n",
		n.Hours, agentHours, stalls, per24(stalls), n.Stalls, per24(n.Stalls), n.OnTime, n.Scheduled, onTime, n.Interventions)
}
