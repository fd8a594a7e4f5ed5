package checks

import (
	"strings"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/hook"
	"github.com/ai-heart/ai-heart/internal/scan"
)

// inactivityAt is the inactivity finding at the moment at, of an agent
// whose own last log was written at own, whose client said evs.
func inactivityAt(at, own time.Time, th config.Thresholds, evs ...hook.Event) (Finding, Result) {
	snap := withLogs(scan.Snapshot{}, logAgo(now.Sub(own), "thinking"))
	var a hook.Activity
	for _, e := range evs {
		if !e.Time.After(at) {
			a.Apply(e)
		}
	}
	c := cfg
	c.Thresholds, c.Client = th, a
	r, _ := Evaluate(at, snap, c, State{})
	f, _ := r.Finding(Inactivity)
	return f, r
}

// One line saying a person is asked (the agent can pipe it to heart-hook)
// holds inactivity off as tool calls do, and no longer: three times its
// thresholds from the agent's own last log. Within that it reads as
// waiting for the person; past it, as hooks alone, still naming the wait.
func TestAskingHoldsInactivityWithinTheHooksBound(t *testing.T) {
	th := config.Defaults().Thresholds // 5m, 10m
	own := now.Add(-time.Hour)
	ask := hook.Event{Time: own.Add(10 * time.Second), Kind: hook.Ask, Detail: "permission_prompt"}
	for _, tc := range []struct {
		after time.Duration
		level Level
		msg   string
		past  bool
	}{
		{14 * time.Minute, OK, "waiting for you since", false},
		{16 * time.Minute, Warning, "only the client's hooks", true},
		{31 * time.Minute, Error, "waiting for you since", true},
	} {
		f, r := inactivityAt(own.Add(tc.after), own, th, ask)
		if f.Level != tc.level || !strings.Contains(f.Message, tc.msg) || !strings.Contains(f.Message, "waiting for you") || r.AskPast != tc.past {
			t.Errorf("%s after the own log: inactivity %v %q, ask past %v; want %v containing %q, past %v", tc.after, f.Level, f.Message, r.AskPast, tc.level, tc.msg, tc.past)
		}
	}
}

// A forged "asking" line every 20 s, a forged tool call 1 s after each
// (which reads as the person's answer), holds inactivity no longer than
// tool calls alone: at thresholds 1m/2m a warning past 3m and an error
// past 6m from the agent's own log (here its first call, which began the
// client's turn), whether the pulse falls in the ask or after the call.
// The answer does not restart what the bound counts from.
func TestForgedAskAndAnswerLoopIsBounded(t *testing.T) {
	th := config.Defaults().Thresholds
	th.InactivityWarning, th.InactivityError = config.Duration(time.Minute), config.Duration(2*time.Minute)
	own := now.Add(-time.Hour)
	var evs []hook.Event
	for at := own.Add(20 * time.Second); at.Before(own.Add(10 * time.Minute)); at = at.Add(20 * time.Second) {
		evs = append(evs, hook.Event{Time: at, Kind: hook.Ask, Detail: "permission_prompt", Tool: "Bash"},
			hook.Event{Time: at.Add(time.Second), Kind: hook.Tool, Tool: "Bash", Input: "x"})
	}
	for _, tc := range []struct {
		after time.Duration
		level Level
	}{
		{2*time.Minute + 50*time.Second, OK},                             // 10 s after an ask, 9 s after the call
		{2*time.Minute + 40*time.Second + 500*time.Millisecond, OK},      // inside the ask
		{3*time.Minute + 30*time.Second, Warning},                        // 3m9s after the first call
		{3*time.Minute + 40*time.Second + 500*time.Millisecond, Warning}, // inside the ask
		{6*time.Minute + 30*time.Second, Error},
		{6*time.Minute + 40*time.Second + 500*time.Millisecond, Error}, // inside the ask
	} {
		f, _ := inactivityAt(own.Add(tc.after), own, th, evs...)
		if f.Level != tc.level {
			t.Errorf("%s after the own log: inactivity %v %q, want %v", tc.after, f.Level, f.Message, tc.level)
		}
	}
}
