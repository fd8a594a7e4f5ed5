package daemon

import (
	"errors"
	"fmt"
	"time"

	"github.com/ai-heart/ai-heart/internal/checks"
	"github.com/ai-heart/ai-heart/internal/state"
	"github.com/ai-heart/ai-heart/internal/telemetry"
)

// channelMemory is how long a channel's last word, read back from the
// state file at a start, keeps it watched: a channel silent for a week
// was most likely turned off on purpose.
const channelMemory = 7 * 24 * time.Hour

// heard is what the channels other than the hooks said (the hooks' own
// times are in the agent's activity). Guarded by the agent's mu.
type heard struct {
	telemetry, telemetryEnd time.Time
	exec                    time.Time
	transcript, transcriptD time.Time // the last booked turn, and the last one due
	restored                state.Channels
}

// channelsNow is when each of the client's channels last spoke, for the
// channel_silent check and the state file. Called with a.mu held.
func (a *agent) channelsNow() checks.Channels {
	chs := checks.Channels{}
	put := func(name string, c checks.Channel) {
		if r := a.heard.restored[name]; c.Last.IsZero() && !r.IsZero() {
			c.Last = r // watched since before this start
		}
		if !c.Last.IsZero() {
			chs[name] = c
		}
	}
	h := a.activity
	hooks := checks.Channel{Busy: h.Running != "" || h.InTurn && h.Asking}
	if h.Wired {
		hooks.Last, hooks.End = h.Last, h.TurnEnd
	}
	put(checks.ChannelHooks, hooks)
	put(checks.ChannelTelemetry, checks.Channel{Last: a.heard.telemetry, End: a.heard.telemetryEnd})
	put(checks.ChannelExec, checks.Channel{Last: a.heard.exec, End: a.heard.exec})
	put(checks.ChannelTranscript, checks.Channel{Last: a.heard.transcript, Due: a.heard.transcriptD})
	return chs
}

// channelTimes is the state file's view of chs: each channel's last word.
func channelTimes(chs checks.Channels) state.Channels {
	if len(chs) == 0 {
		return nil
	}
	out := state.Channels{}
	for n, c := range chs {
		out[n] = c.Last
	}
	return out
}

// restoreChannels reads back, from the state file the last run left, the
// channels that spoke within channelMemory: a hook that broke before a
// restart stays watched.
func (a *agent) restoreChannels(now time.Time) {
	prev, err := state.Load(a.dir) // the watchdog's own copy, not the published one the agent can write
	if err != nil {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	for n, t := range prev.Channels {
		if !t.After(now) && now.Sub(t) < channelMemory {
			if a.heard.restored == nil {
				a.heard.restored = state.Channels{}
			}
			a.heard.restored[n] = t
		}
	}
}

// telemetryHeard notes reports from the client's telemetry at now (the
// time they arrived: the client's own times are the agent's to forge). A
// model request's usage or error is the end of a turn's step, which the
// other channels must have spoken for.
func (a *agent) telemetryHeard(now time.Time, reps []telemetry.Report) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.heard.telemetry = now
	for _, r := range reps {
		if r.Kind == telemetry.KindUsage || r.Kind == telemetry.KindError {
			a.heard.telemetryEnd = now
		}
	}
}

// transcriptHeard notes a turn whose transcript was read: due at the
// turn's end where the client keeps one (Claude Code), spoken when it held
// the turn's usage.
func (a *agent) transcriptHeard(t answeredTurn, spoke bool) {
	if t.end.Transcript == "" {
		return // a client without transcripts: nothing was due
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	a.heard.transcriptD = t.end.Time
	if spoke {
		a.heard.transcript = a.clock.Now()
	}
}

// Telemetry takes what a client reported over OpenTelemetry for the agent
// named (""  when the watchdog runs one agent). It fails with
// ErrUnknownAgent for a name it does not run.
func (d *Daemon) Telemetry(name string, reps []telemetry.Report) error {
	a, err := d.teleAgent(name)
	if err != nil {
		return err
	}
	now := a.clock.Now()
	a.telemetryHeard(now, reps)
	unmatched, refused, overflow := a.tele.add(now, a.name, a.cfg.Budget.MaxReportTokens, a.liveBind(), reps)
	if unmatched+refused > 0 {
		a.count(func(c *state.Counters) { c.TelemetryUnmatched += unmatched; c.TelemetryRefused += refused })
	}
	if overflow > 0 {
		a.mu.Lock()
		first := !a.teleOverflowed
		a.teleOverflowed = true
		a.mu.Unlock()
		if first {
			a.emit(now, a.currentID(), checks.Warning, "telemetry", fmt.Sprintf(
				"the telemetry book is full (%d reports held for the runs to come): older reports of no run in flight are dropped; a flood of reports under this agent's key", teleMaxHeld), 0)
		}
	}
	return nil
}

// TelemetryWithoutKey counts a post the window refused for want of the
// agent's key, apart from what is charged; the first since the start is
// alerted, so an operator whose clients still export to an old URL hears
// how to fix it.
func (d *Daemon) TelemetryWithoutKey(name string) {
	a, err := d.teleAgent(name)
	if err != nil {
		return
	}
	a.mu.Lock()
	first := a.counters.TelemetryUnkeyed == 0
	a.counters.TelemetryUnkeyed++
	a.mu.Unlock()
	if first {
		a.emit(a.clock.Now(), a.currentID(), checks.Warning, "telemetry",
			"telemetry posted without this agent's key was refused (not charged): another project's client, or this agent's exporting to an old URL; if it is this agent's, run `watchdog init -c CONFIG WORKSPACE` again", 0)
	}
}

func (d *Daemon) teleAgent(name string) (*agent, error) {
	d.mu.Lock()
	agents := d.agents
	d.mu.Unlock()
	for _, x := range agents {
		if x.name == name || name == "" && len(agents) == 1 {
			return x, nil
		}
	}
	if name == "" {
		return nil, fmt.Errorf("%w: this watchdog runs %d agents; post to /otlp/<agent>/<key>/v1/…", ErrUnknownAgent, len(agents))
	}
	return nil, fmt.Errorf("%w %q", ErrUnknownAgent, name)
}

// ErrUnknownAgent: telemetry for an agent this watchdog does not run.
var ErrUnknownAgent = errors.New("no such agent")
