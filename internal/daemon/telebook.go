package daemon

import (
	"sync"
	"time"

	"github.com/ai-heart/ai-heart/internal/cost"
	"github.com/ai-heart/ai-heart/internal/telemetry"
)

// telemetryGrace is how long after a run or turn ends its client's
// telemetry may still arrive and count for it: Claude Code posts as it
// exits, Gemini CLI and Codex flush their batches at exit, seconds later.
const telemetryGrace = 10 * time.Second

// Bounds of what the book keeps: usage not taken within an hour was no
// wakeup's (a turn a person typed, another project's Codex session), and a
// key is remembered a day, long past any client's retries.
const (
	teleKeep     = time.Hour
	teleKeysKeep = 24 * time.Hour
	teleMaxKeys  = 100_000
	teleMaxHeld  = 10_000
)

// teleBook holds the usage the client's telemetry reported until a run or
// turn takes it, each request once.
type teleBook struct {
	mu   sync.Mutex
	held []teleUsage
	keys map[string]time.Time // every key seen, when
}

type teleUsage struct {
	at  time.Time // when it arrived
	rep telemetry.Report
}

// add keeps reps' usage reports that arrived at now, dropping a key seen
// before (an export sent twice).
func (b *teleBook) add(now time.Time, reps []telemetry.Report) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.keys == nil {
		b.keys = map[string]time.Time{}
	}
	for _, r := range reps {
		if r.Kind != telemetry.KindUsage {
			continue
		}
		if _, dup := b.keys[r.Key]; dup || len(b.keys) >= teleMaxKeys || len(b.held) >= teleMaxHeld {
			continue
		}
		b.keys[r.Key] = now
		b.held = append(b.held, teleUsage{at: now, rep: r})
	}
	b.prune(now)
}

func (b *teleBook) prune(now time.Time) {
	kept := b.held[:0]
	for _, u := range b.held {
		if now.Sub(u.at) < teleKeep {
			kept = append(kept, u)
		}
	}
	b.held = kept
	for k, at := range b.keys {
		if now.Sub(at) >= teleKeysKeep {
			delete(b.keys, k)
		}
	}
}

// pending returns the usage held, not yet taken by a run or turn.
func (b *teleBook) pending() []telemetry.Report {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := make([]telemetry.Report, 0, len(b.held))
	for _, u := range b.held {
		out = append(out, u.rep)
	}
	return out
}

// take removes and returns the usage that arrived within [from, to].
func (b *teleBook) take(from, to time.Time) []telemetry.Report {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []telemetry.Report
	kept := b.held[:0]
	for _, u := range b.held {
		if !u.at.Before(from) && !u.at.After(to) {
			out = append(out, u.rep)
		} else {
			kept = append(kept, u)
		}
	}
	b.held = kept
	return out
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
// arrive: with telemetry wired, it waits until telemetryGrace after end and
// takes what arrived from start on. Without telemetry it returns at once.
func (a *agent) withTelemetry(start, end time.Time, own *cost.Usage, from string) (*cost.Usage, string) {
	a.mu.Lock()
	wired := !a.heard.telemetry.IsZero()
	a.mu.Unlock()
	if !wired {
		if own == nil {
			return nil, ""
		}
		return own, from
	}
	if wait := end.Add(telemetryGrace).Sub(a.clock.Now()); wait > 0 {
		time.Sleep(wait)
	}
	return oneSource(own, from, teleUsageOf(a.tele.take(start, end.Add(telemetryGrace))))
}
