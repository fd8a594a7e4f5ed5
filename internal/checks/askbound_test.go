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

// A dialog the client's screen shows is the client's, not the agent's
// word: it holds inactivity off however long the person takes, and the
// count, the hooks' bound too, begins again at the answer. An ask no
// screen showed stays bounded, and its answer does not move the bound.
func TestASeenDialogIsThePersonsTime(t *testing.T) {
	th := config.Defaults().Thresholds // 5m, 10m: the bound 15m, 30m
	own := now.Add(-time.Hour)
	ask := hook.Event{Time: own.Add(10 * time.Second), Kind: hook.Ask, Detail: "permission_prompt", Tool: "Bash"}
	answer := hook.Event{Time: own.Add(40 * time.Minute), Kind: hook.ToolDone, Tool: "Bash"}
	at := func(after time.Duration, seen bool) Finding {
		snap := withLogs(scan.Snapshot{}, logAgo(now.Sub(own), "thinking"))
		var a hook.Activity
		a.Apply(ask)
		if seen {
			a.SawScreen(ask.Time.Add(5*time.Second), true, false, 3*time.Second)
		}
		if !answer.Time.After(own.Add(after)) {
			a.Apply(answer)
		}
		c := cfg
		c.Thresholds, c.Client = th, a
		r, _ := Evaluate(own.Add(after), snap, c, State{})
		f, _ := r.Finding(Inactivity)
		return f
	}
	for _, tc := range []struct {
		after time.Duration
		seen  bool
		level Level
	}{
		{35 * time.Minute, true, OK},                    // the dialog stands on the screen past 3 times the error
		{40*time.Minute + time.Minute, true, OK},        // a minute after the answer
		{40*time.Minute + 6*time.Minute, true, Warning}, // counted from the answer: past the warning
		{35 * time.Minute, false, Error},                // the hooks' word alone: bounded
		{40*time.Minute + time.Minute, false, Error},    // and its answer moves no bound
	} {
		if f := at(tc.after, tc.seen); f.Level != tc.level {
			t.Errorf("%s after the own log, dialog seen %v: inactivity %v %q, want %v", tc.after, tc.seen, f.Level, f.Message, tc.level)
		}
	}
	// The screen without the dialog, once it was seen: the person answered
	// with no hook (Escape); an ask the screen never showed is not ended
	// by it, nor made the person's.
	var a hook.Activity
	a.Apply(ask)
	a.SawScreen(ask.Time.Add(time.Second), false, true, 3*time.Second)
	if !a.Asking || !a.AskSeen.IsZero() {
		t.Fatalf("an input line on the screen ended or verified an ask never seen: %+v", a)
	}
	a.SawScreen(ask.Time.Add(2*time.Second), true, false, 3*time.Second)
	a.SawScreen(ask.Time.Add(9*time.Second), false, true, 3*time.Second)
	if a.Asking || !a.AnswerSeen || !a.Answered.Equal(ask.Time.Add(9*time.Second)) {
		t.Fatalf("the dialog gone from the screen: %+v, want answered then", a)
	}
	// A new ask line is the hooks' word again until the screen shows it.
	a.Apply(hook.Event{Time: ask.Time.Add(20 * time.Second), Kind: hook.Ask, Detail: "permission_prompt"})
	if !a.AskSeen.IsZero() {
		t.Fatalf("a new ask inherited the last one's dialog: %+v", a)
	}
}

// One wakeup has one start: a run of the client's turns that began after
// the unanswered wakeup (an exec run's client starting up; its prompt hook
// comes ten seconds later) is that wakeup's answer, and the hooks' bound
// counts from the wakeup, as the warning counted from it said first.
func TestOneWakeupOneStart(t *testing.T) {
	th := config.Defaults().Thresholds
	th.InactivityWarning, th.InactivityError = config.Duration(3*time.Second), config.Duration(5*time.Minute)
	woke := now.Add(-time.Hour)
	var a hook.Activity
	a.Apply(hook.Event{Time: woke.Add(10 * time.Second), Kind: hook.TurnStart})
	for at := woke.Add(11 * time.Second); at.Before(woke.Add(20 * time.Second)); at = at.Add(time.Second) {
		a.Apply(hook.Event{Time: at, Kind: hook.Tool, Tool: "run_shell_command", Input: at.String()})
	}
	c := cfg
	c.Thresholds, c.Client = th, a
	c.Work = Work{Scheduled: true, Working: true, Since: woke}
	r, _ := Evaluate(woke.Add(20*time.Second), scan.Snapshot{}, c, State{})
	f, _ := r.Finding(Inactivity)
	if f.Level != Warning || !strings.Contains(f.Notice, woke.Format("15:04:05")) || strings.Contains(f.Notice, woke.Add(10*time.Second).Format("15:04:05")) {
		t.Fatalf("inactivity %v %q: want a warning counted from the wakeup (%s)", f.Level, f.Notice, woke.Format("15:04:05"))
	}
}
