package checks

import (
	"fmt"
	"sort"
	"strings"
	"time"
)

// The channels a client speaks through, as the state file, /metrics and
// the page name them.
const (
	ChannelHooks      = "hooks"      // heart-hook's spool
	ChannelTelemetry  = "telemetry"  // OpenTelemetry exports to the window
	ChannelExec       = "exec"       // an exec run's output
	ChannelTranscript = "transcript" // the client's transcript a Stop hook names
)

// Channel is one channel's times.
type Channel struct {
	// Last is when it last spoke; zero: not since the watchdog started
	// (nor in the state file before), so it is not watched.
	Last time.Time `json:"last"`
	// End is the newest end of a turn it reported: a hooked turn's end,
	// an exec run's end, a model request in the telemetry. Zero: it
	// reports no turn's end of its own.
	End time.Time `json:"-"`
	// Due, when set, is the newest end of a turn this channel had to
	// report, which the others' ends stand for otherwise: the transcript
	// is due at the end of a turn that answered a wakeup, not of one a
	// person typed.
	Due time.Time `json:"-"`
	// Busy: it reports something begun and not ended (a hooked tool call
	// in flight), so its silence is no sign of a fault.
	Busy bool `json:"-"`
}

// Channels is when each channel of the agent's client last spoke, by name.
type Channels map[string]Channel

// channelSilent warns when a channel that spoke before says nothing about
// turns the client is evidently running: another channel reported a turn's
// end more than thresholds.channel_silent after this one's last word. A
// hook that stopped working (settings rewritten, heart-hook removed) then
// shows within one turn instead of looking like a healthy agent for weeks.
// Each channel is judged by the others' ends, not their every word: Claude
// Code in -p mode exports its telemetry as it exits, so during a long run
// only the hooks speak, and the telemetry is due at the run's end. For the
// operator only: the agent can do nothing about its client's wiring.
func (e *eval) channelSilent() Finding {
	f := Finding{Check: ChannelSilent, Message: "every channel that spoke reports the client's turns"}
	grace := e.cfg.Thresholds.ChannelSilent.D()
	chs := e.cfg.Channels
	if len(chs) == 0 {
		f.Message = "no channel of the client has spoken yet (hooks, telemetry, exec output, transcript)"
		return f
	}
	names := make([]string, 0, len(chs))
	for n := range chs {
		names = append(names, n)
	}
	sort.Strings(names)
	var silent []string
	var longest time.Duration
	for _, n := range names {
		c := chs[n]
		if c.Last.IsZero() || c.Busy {
			continue
		}
		by, end := "a turn it had to report", c.Due
		for _, m := range names {
			if o := chs[m]; c.Due.IsZero() && m != n && o.End.After(end) {
				by, end = m+" reported a turn", o.End
			}
		}
		if end.IsZero() || !end.After(c.Last.Add(grace)) || e.now.Before(end) {
			continue
		}
		silent = append(silent, fmt.Sprintf("%s (last at %s; %s ended at %s)", n, e.clock(c.Last), by, e.clock(end)))
		longest = max(longest, e.now.Sub(c.Last))
	}
	if len(silent) == 0 {
		return f
	}
	f.Level, f.Elapsed = Warning, longest
	f.Message = fmt.Sprintf("silent while the client runs: %s; check the client's settings (watchdog init --client rewires them)", strings.Join(silent, "; "))
	return f
}
