package daemon

import (
	"crypto/rand"
	"encoding/hex"
	"math"
	"slices"
	"sync"
	"time"

	"github.com/ai-heart/ai-heart/internal/cost"
	"github.com/ai-heart/ai-heart/internal/telemetry"
)

// Bounds of what the book keeps: usage not taken within an hour was no
// wakeup's (a turn a person typed, another project's Codex session), and a
// key is remembered a day, long past any client's retries.
const (
	teleKeep     = time.Hour
	teleKeysKeep = 24 * time.Hour
	teleMaxKeys  = 100_000
	teleMaxHeld  = 10_000
)

// teleBook holds the usage the client's telemetry reported until the run or
// turn it belongs to takes it, each request once. A report belongs by who
// sent it, never by when it came: an exec run by the tags the watchdog gave
// it (telemetry.AttrRun), a turn in a pane by its client's session.
type teleBook struct {
	mu   sync.Mutex
	held []teleUsage
	keys map[string]time.Time // every key seen, when
	// Counted apart, never charged: reports that belonged to no run or
	// turn (another agent's, or never taken), and reports refused as
	// implausible (a negative count, past budget.max_report_tokens).
	unmatched, refused int64
}

type teleUsage struct {
	at  time.Time // when it arrived
	rep telemetry.Report
}

// teleBind names what a run or turn may take: an exec run by its tag, a
// turn by its client's session and the time it ran.
type teleBind struct {
	run      string
	session  string
	from, to time.Time
}

// owns says whether u belongs to the run or turn b names.
func (b teleBind) owns(u teleUsage) bool {
	if b.run != "" {
		return u.rep.Run == b.run
	}
	return b.session != "" && u.rep.Run == "" && u.rep.Session == b.session &&
		!u.at.Before(b.from) && (b.to.IsZero() || !u.at.After(b.to))
}

// add keeps the usage reports of reps that arrived at now for the agent
// named: a report tagged for another agent, an implausible one (most caps
// a report's tokens; 0 none) and one that uses nothing are not kept, nor a
// key seen before (an export sent twice). A full book makes room by its
// oldest report not the run's or turn's in flight (live), so a flood
// cannot push out what a run will take; overflow counts what made room.
func (b *teleBook) add(now time.Time, agent string, most int64, live teleBind, reps []telemetry.Report) (unmatched, refused, overflow int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	u0, r0 := b.unmatched, b.refused
	defer func() { unmatched, refused = b.unmatched-u0, b.refused-r0 }()
	if b.keys == nil {
		b.keys = map[string]time.Time{}
	}
	b.prune(now)
	for _, r := range reps {
		if r.Kind != telemetry.KindUsage {
			continue
		}
		switch {
		case r.Agent != "" && r.Agent != agent && r.Agent != telemetry.Escape(agent):
			b.unmatched++
			continue
		case implausibleReport(r, most):
			b.refused++
			continue
		case r.Tokens.Total() == 0 && (r.USD == nil || *r.USD == 0):
			continue // nothing to book
		}
		if _, dup := b.keys[r.Key]; dup {
			continue
		}
		if len(b.keys) < teleMaxKeys {
			b.keys[r.Key] = now
		}
		if len(b.held) >= teleMaxHeld {
			// Room is made by the oldest report that is not the run's or
			// turn's in flight (live): a flood cannot push out what it
			// will take. A book full of the live run's keeps what it has.
			overflow++
			i := slices.IndexFunc(b.held, func(u teleUsage) bool { return !live.owns(u) })
			if i < 0 {
				b.unmatched++
				continue
			}
			b.held = slices.Delete(b.held, i, i+1)
			b.unmatched++
		}
		b.held = append(b.held, teleUsage{at: now, rep: r})
	}
	return
}

// implausibleReport: a count that cannot be true, as cost.Vet would refuse
// the run it was summed into (one forged request must not turn a run's
// real usage unknown, nor lower what the gate sees in flight).
func implausibleReport(r telemetry.Report, most int64) bool {
	for _, k := range cost.Kinds {
		if r.Tokens.Kind(k) < 0 {
			return true
		}
	}
	if most > 0 && r.Tokens.Total() > most {
		return true
	}
	return r.USD != nil && (*r.USD < 0 || math.IsNaN(*r.USD) || math.IsInf(*r.USD, 0))
}

// prune drops what no run took within teleKeep (counted apart) and keys
// older than teleKeysKeep.
func (b *teleBook) prune(now time.Time) {
	kept := b.held[:0]
	for _, u := range b.held {
		if now.Sub(u.at) < teleKeep {
			kept = append(kept, u)
		} else {
			b.unmatched++
		}
	}
	b.held = kept
	for k, at := range b.keys {
		if now.Sub(at) >= teleKeysKeep {
			delete(b.keys, k)
		}
	}
}

// pending returns the usage held for the run or turn b names, not taken yet.
func (b *teleBook) pending(bind teleBind) []telemetry.Report {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []telemetry.Report
	for _, u := range b.held {
		if bind.owns(u) {
			out = append(out, u.rep)
		}
	}
	return out
}

// take removes and returns the usage that belongs to the run or turn b names.
func (b *teleBook) take(bind teleBind) []telemetry.Report {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []telemetry.Report
	kept := b.held[:0]
	for _, u := range b.held {
		if bind.owns(u) {
			out = append(out, u.rep)
		} else {
			kept = append(kept, u)
		}
	}
	b.held = kept
	return out
}

// newRunID names one exec run for its telemetry's tags.
func newRunID() string {
	var b [8]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// teleUsageOf sums usage reports into one run's usage: tokens by kind and
// model, and the client's own price when it priced every request (Claude
// Code's cost_usd, taken as it comes); nil for none.
func teleUsageOf(reps []telemetry.Report) *cost.Usage {
	if len(reps) == 0 {
		return nil
	}
	u := &cost.Usage{Models: map[string]cost.Tokens{}}
	var usd float64
	priced := true
	for _, r := range reps {
		u.Tokens = u.Tokens.Add(r.Tokens)
		u.Models[r.Model] = u.Models[r.Model].Add(r.Tokens)
		if r.USD == nil {
			priced = false
		} else {
			usd += *r.USD
		}
	}
	if priced {
		u.ReportedUSD = &usd
	}
	return u
}

// oneSource picks a run's usage between what its output or transcript
// reported (own, from) and what the telemetry did, deterministically: the
// telemetry when it reported the run, unless the other reports more tokens
// (a forged or partial telemetry never lowers what a run is booked at).
func oneSource(own *cost.Usage, from string, tele *cost.Usage) (*cost.Usage, string) {
	switch {
	case tele == nil:
		if own == nil {
			return nil, ""
		}
		return own, from
	case own != nil && own.Tokens.Total() > tele.Tokens.Total():
		return own, from
	}
	return tele, cost.FromTelemetry
}

// withTelemetry is a run's usage once its telemetry had the grace to
// arrive: with telemetry wired, it waits until agent.telemetry_grace after end and
// takes what belongs to the run or turn bind names. Without telemetry it
// returns at once.
func (a *agent) withTelemetry(bind teleBind, end time.Time, own *cost.Usage, from string) (*cost.Usage, string) {
	a.mu.Lock()
	wired := !a.heard.telemetry.IsZero()
	a.mu.Unlock()
	if !wired {
		if own == nil {
			return nil, ""
		}
		return own, from
	}
	grace := a.cfg.Agent.TelemetryGrace.D()
	if wait := end.Add(grace).Sub(a.clock.Now()); wait > 0 {
		time.Sleep(wait)
	}
	if bind.run == "" {
		bind.to = end.Add(grace)
	}
	return oneSource(own, from, teleUsageOf(a.tele.take(bind)))
}
