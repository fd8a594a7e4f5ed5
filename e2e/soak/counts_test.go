//go:build soak

package soak

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"time"

	"github.com/ai-heart/ai-heart/internal/budget"
	"github.com/ai-heart/ai-heart/internal/cost"
	"github.com/ai-heart/ai-heart/internal/statefile"
)

// judgeCounts: the cap and the ledger count every run across restarts and
// full disks; the cap is never exceeded.
func (s *soak) judgeCounts(order []int, starts map[int]runRec, ends, terms map[int]time.Time) {
	t := s.t
	now := time.Now().UTC()
	today := now.Format(time.DateOnly)
	started, inFlight := 0, 0
	for _, p := range order {
		if starts[p].At.UTC().Format(time.DateOnly) != today {
			continue
		}
		started++
		if s.killed[p] {
			inFlight++
		}
	}
	c, err := budget.OpenDailyCap(s.agentDir, s.capLimit, time.UTC)
	if err != nil {
		t.Errorf("daily cap: %v", err)
	}
	used := c.State(now).Used
	if used < started || used > started+len(s.kills) {
		t.Errorf("daily cap counts %d used for %d runs started today (%d kill -9): a run was not counted", used, started, len(s.kills))
	}
	if started > s.capLimit {
		t.Errorf("%d runs started today over the daily cap of %d", started, s.capLimit)
	}
	for _, pl := range s.pulses {
		if pl.CapLimit > 0 && pl.CapUsed > pl.CapLimit {
			t.Errorf("a pulse showed the cap at %d used of %d", pl.CapUsed, pl.CapLimit)
			break
		}
	}
	for i := 1; i < len(s.pulses); i++ {
		a, b := s.pulses[i-1], s.pulses[i]
		if a.PID != b.PID && a.CapDay == b.CapDay && b.CapUsed < a.CapUsed {
			t.Errorf("the cap's count went from %d to %d across a restart (watchdog %d to %d)", a.CapUsed, b.CapUsed, a.PID, b.PID)
		}
	}
	// Once telemetry has spoken, an exec run is booked telemetryGrace (10 s)
	// after its end, waiting for late reports: a kill -9 in that wait loses
	// its booking (the cap counted it). Those runs are named apart; a run
	// ended within half a second of the grace's edge may go either way.
	const grace = 10 * time.Second
	// A watchdog process waits that grace only once telemetry has reached
	// it: a post answered 2xx since its start or its last reload.
	var posts, resets []time.Time
	readLines(filepath.Join(s.run, "ledger", "telemetry.jsonl"), func(b []byte) {
		var p struct {
			Code int       `json:"code"`
			At   time.Time `json:"at"`
		}
		if json.Unmarshal(b, &p) == nil && p.Code/100 == 2 {
			posts = append(posts, p.At)
		}
	})
	for _, c := range s.chaos {
		if c.Kind == "kill -9" || c.Kind == "SIGHUP" {
			resets = append(resets, c.At)
		}
	}
	wired := func(end time.Time) bool {
		for _, p := range posts {
			if p.Before(end) && !s.overlaps(p, end, resets) {
				return true
			}
		}
		return false
	}
	lostInGrace, edge := map[int]bool{}, 0
	lastAlive := map[int]time.Time{} // a run killed after ignoring SIGTERM records no end
	for _, sc := range s.scans {
		for _, g := range sc.Groups {
			lastAlive[g] = sc.At
		}
	}
	for _, p := range order {
		end := ends[p]
		if !terms[p].IsZero() {
			end = terms[p]
		}
		if end.IsZero() {
			end = lastAlive[p]
		}
		if s.killed[p] || end.IsZero() || !wired(end) {
			continue
		}
		for _, k := range s.kills {
			if d := k.Sub(end); d > 0 && d < grace+500*time.Millisecond {
				if d > grace-500*time.Millisecond {
					edge++
				} else {
					lostInGrace[p] = true
				}
			}
		}
	}
	var book struct {
		Days map[string]*cost.Day `json:"days"`
	}
	found, err := statefile.ReadKept(filepath.Join(s.agentDir, "cost.json"), &book)
	var booked cost.Cell
	if found && err == nil && book.Days[today] != nil {
		booked = book.Days[today].By.Sum("")
	}
	want := int64(started - inFlight - len(lostInGrace))
	if booked.Runs < want-int64(edge) || booked.Runs > want {
		t.Errorf("the ledger booked %d runs today; want %d (%d started, %d in flight at a kill -9, %d ended in the telemetry grace before one, %d at its edge)",
			booked.Runs, want, started, inFlight, len(lostInGrace), edge)
	}
	var in, out int64
	readLines(filepath.Join(s.run, "ledger", "usage.jsonl"), func(b []byte) {
		var u usageRec
		if json.Unmarshal(b, &u) == nil && !s.killed[u.PID] && !lostInGrace[u.PID] {
			in, out = in+u.Input, out+u.Output
		}
	})
	if edge == 0 && (booked.Tokens.Input != in || booked.Tokens.Output != out) {
		t.Errorf("the ledger's tokens today %d in / %d out; the agent reported %d / %d for the runs booked", booked.Tokens.Input, booked.Tokens.Output, in, out)
	}
	fmt.Printf("soak: cap %d used of %d for %d runs started (%d kill -9); ledger %d runs (%d in flight at a kill -9, %d lost in the telemetry grace before one), %d/%d tokens\n",
		used, s.capLimit, started, len(s.kills), booked.Runs, inFlight, len(lostInGrace), booked.Tokens.Input, booked.Tokens.Output)
}
