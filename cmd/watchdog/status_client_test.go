package main

import (
	"strings"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/state"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

func TestClientRow(t *testing.T) {
	now := time.Date(2026, 11, 25, 14, 10, 0, 0, time.Local)
	since := now.Add(-8 * time.Minute)
	last := now.Add(-20 * time.Second)
	for _, tc := range []struct {
		c    *state.Client
		want []string
	}{
		{nil, []string{"no hook event yet", "watchdog init --client"}},
		{&state.Client{Mode: state.ClientInTurn, Since: &since, LastTool: "Bash", LastToolAt: &last, ToolCalls: 1}, []string{"; 1 tool call in 5m, last Bash 20s ago"}},
		{&state.Client{Mode: state.ClientInTurn, Since: &since, LastTool: "Bash", LastToolAt: &last, ToolCalls: 1, Running: true}, []string{"running Bash for 20s; 1 tool call in 5m"}},
		{&state.Client{Mode: state.ClientInTurn, Since: &since, LastTool: "Bash", LastToolAt: &last, ToolCalls: 14}, []string{"in a turn since 14:02", "14 tool calls in 5m, last Bash 20s ago"}},
		{&state.Client{Mode: state.ClientWaitingForYou, Since: &since, Asking: "permission"}, []string{"WAITING FOR YOU since 14:02 (permission)"}},
		{&state.Client{Mode: state.ClientInTurn, Since: &since, LastTool: "Bash", LastToolAt: &last, ToolCalls: 3, Running: true}, []string{"in a turn since 14:02", "running Bash for 20s; 3 tool calls in 5m"}},
		{&state.Client{Mode: state.ClientWaiting, Repeats: 9, LoopTools: "Bash", Failure: "rate_limit"}, []string{"waiting", "Bash repeated 9 times", "failed: rate_limit"}},
	} {
		got := clientRow(now, tc.c)
		for _, w := range tc.want {
			if !strings.Contains(got, w) {
				t.Errorf("clientRow(%+v) = %q, want %q in it", tc.c, got, w)
			}
		}
	}
}

// The work row says the working time introspection is owed on, and no
// "0s worked since the last introspection" when nothing was worked or no
// introspection was ever written.
func TestWorkRow(t *testing.T) {
	now := time.Date(2026, 11, 25, 14, 10, 0, 0, time.Local)
	intro := &workspace.Proof{ModTime: now.Add(-time.Hour)}
	for _, tc := range []struct {
		w     state.Work
		intro *workspace.Proof
		want  string
	}{
		{state.Work{Mode: state.WorkWaiting, WorkedSinceIntrospection: config.Duration(12 * time.Minute)}, intro, "waiting for the next wakeup (healthy); 12m worked since the last introspection"},
		{state.Work{Mode: state.WorkWaiting}, intro, "waiting for the next wakeup (healthy); no work since the last introspection"},
		{state.Work{Mode: state.WorkWaiting}, nil, "waiting for the next wakeup (healthy); no introspection yet"},
		{state.Work{Mode: state.WorkWaiting, WorkedSinceIntrospection: config.Duration(7 * time.Minute)}, nil, "waiting for the next wakeup (healthy); 7m worked, no introspection yet"},
	} {
		if got := workRow(now, tc.w, tc.intro); got != tc.want {
			t.Errorf("workRow(%+v, intro %v) = %q, want %q", tc.w, tc.intro != nil, got, tc.want)
		}
	}
}

// A spool the watchdog cannot read (a FIFO the agent put there) is in
// status, not only in the log and one alert: the hooks are not heard.
func TestStatusSaysTheHooksAreNotHeard(t *testing.T) {
	now := time.Date(2026, 11, 25, 14, 10, 0, 0, time.Local)
	ws, err := workspace.New(t.TempDir(), time.Local)
	if err != nil {
		t.Fatal(err)
	}
	st := state.State{Agent: "a", PulseAt: now, PulseInterval: config.Duration(time.Minute)}
	st.Chambers.Pulse.HooksUnread = "open stats/hooks/20261125.jsonl: not a regular file (a FIFO)"
	var b strings.Builder
	printStatus(&b, ws, t.TempDir(), st, "", now, true, "")
	if !strings.Contains(b.String(), "hooks:") || !strings.Contains(b.String(), "NOT HEARD: the hooks' spool cannot be read (open stats/hooks/20261125.jsonl: not a regular file (a FIFO))") {
		t.Fatalf("status:\n%s\nwant a hooks row saying they are not heard, and why", b.String())
	}
}

// A schedule spread by a rate limit is in status, with until when, why and
// how far apart at most (its "next wakeup" alone read as a whole schedule).
func TestStatusSaysTheScheduleIsSpread(t *testing.T) {
	now := time.Date(2026, 11, 25, 14, 10, 0, 0, time.Local)
	ws, err := workspace.New(t.TempDir(), time.Local)
	if err != nil {
		t.Fatal(err)
	}
	st := state.State{Agent: "a", PulseAt: now, PulseInterval: config.Duration(time.Minute)}
	st.Chambers.Schedule.Spread = &state.Spread{Window: "seven_day", Why: "7-day limit, 99 % used", Until: now.Add(72 * time.Hour), MaxGap: config.Duration(time.Hour)}
	var b strings.Builder
	printStatus(&b, ws, t.TempDir(), st, "", now, true, "")
	if !strings.Contains(b.String(), "spread:") || !strings.Contains(b.String(), "spread until 2026-11-28 14:10 (7-day limit, 99 % used), at most 1h apart") {
		t.Fatalf("status:\n%s\nwant a spread row", b.String())
	}
}

// A setting that turns the client's hooks off is shown in status on a row
// of its own, naming the file and the setting: the budget gate is off too.
func TestStatusShowsHooksOff(t *testing.T) {
	now := time.Now()
	ws, _ := workspace.New(t.TempDir(), nil)
	msg := "the client's hooks are turned off by .claude/settings.local.json (disableAllHooks: true): heart-hook hears no turn or tool call"
	st := state.State{Agent: "a", PID: 1, StartedAt: now, PulseAt: now, Checks: map[string]state.CheckState{
		"hooks_off": {Level: "error", Message: msg}, "inactivity": {Level: "ok"}}}
	var b strings.Builder
	printStatus(&b, ws, t.TempDir(), st, "", now, true, "")
	if !strings.Contains(b.String(), "HOOKS OFF:") || !strings.Contains(b.String(), msg) || !strings.Contains(b.String(), "hooks_off") {
		t.Errorf("status:\n%s\nwant a HOOKS OFF row with %q", b.String(), msg)
	}
}
