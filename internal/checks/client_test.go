package checks

import (
	"strings"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/hook"
	"github.com/ai-heart/ai-heart/internal/lang"
	"github.com/ai-heart/ai-heart/internal/scan"
)

// activity folds events at seconds before now.
func activity(evs ...hook.Event) hook.Activity {
	var a hook.Activity
	for _, e := range evs {
		a.Apply(e)
	}
	return a
}

func toolAt(ago time.Duration, tool, in string) hook.Event {
	return hook.Event{Time: now.Add(-ago), Kind: hook.Tool, Tool: tool, Input: in}
}

// A long turn of tool calls with no checkpoint is busy, not inactive; when
// the calls stop, inactivity counts from the last one. The hooks alone hold
// it off for three times its thresholds at most (15m, 30m by default):
// the agent can write them itself, and a turn said to end and begin again
// restarts nothing.
func TestInactivityWithHooks(t *testing.T) {
	snap := withLogs(scan.Snapshot{}, logAgo(40*time.Minute, "thinking"))
	turn := func(began time.Duration) []hook.Event {
		calls := []hook.Event{{Time: now.Add(-began), Kind: hook.TurnStart}}
		for i := range 14 {
			at := time.Duration(280-i*20) * time.Second
			if i == 7 { // a turn said to end and another to begin
				calls = append(calls, hook.Event{Time: now.Add(-at), Kind: hook.TurnEnd}, hook.Event{Time: now.Add(-at), Kind: hook.TurnStart})
			}
			calls = append(calls, toolAt(at, "Bash", string(rune('a'+i))))
		}
		return calls
	}
	calls := turn(14 * time.Minute)
	for _, tc := range []struct {
		name   string
		client hook.Activity
		level  Level
		msg    string
	}{
		{"no hooks", hook.Activity{}, Error, "no activity log or checkpoint for 40m"},
		{"busy", activity(calls...), OK, "busy: 14 tool calls in 5m, last Bash 20s ago"},
		{"busy on hooks alone past 3x the warning", activity(turn(16 * time.Minute)...), Warning, "no activity log or checkpoint for 16m, only the client's hooks (they hold inactivity off for 3 times its thresholds at most: warning after 15m, error after 30m; busy: 14 tool calls in 5m"},
		{"busy on hooks alone past 3x the error", activity(turn(31 * time.Minute)...), Error, "for 31m, only the client's hooks"},
		{"calls stopped", activity(toolAt(11*time.Minute, "Bash", "x")), Error, "last tool call Bash at"},
		{"asking", activity(toolAt(14*time.Minute, "Bash", "x"), hook.Event{Time: now.Add(-10 * time.Minute), Kind: hook.Ask, Detail: "permission"}), OK, "waiting for you since"},
		// A person being asked holds it off as tool calls do: 3 times its
		// thresholds from the turn's start, no longer.
		{"asking past the hooks' bound", activity(toolAt(30*time.Minute, "Bash", "x"), hook.Event{Time: now.Add(-15 * time.Minute), Kind: hook.Ask, Detail: "permission"}), Warning, "only the client's hooks (they hold inactivity off for 3 times its thresholds at most: warning after 15m, error after 30m; waiting for you since 11:45:00"},
		// The person took 9 minutes to answer: not the agent's minutes.
		{"answered", activity(toolAt(14*time.Minute, "Bash", "x"), hook.Event{Time: now.Add(-10 * time.Minute), Kind: hook.Ask, Detail: "permission", Tool: "Bash"}, hook.Event{Time: now.Add(-20 * time.Second), Kind: hook.ToolDone, Tool: "Bash"}), OK, "a person answered at"},
		// Nor does the answer begin the hooks' bound again: any tool call
		// after an ask line reads as the answer.
		{"answered, past the hooks' bound", activity(toolAt(30*time.Minute, "Bash", "x"), hook.Event{Time: now.Add(-30 * time.Minute), Kind: hook.Ask, Detail: "permission", Tool: "Bash"}, hook.Event{Time: now.Add(-20 * time.Second), Kind: hook.ToolDone, Tool: "Bash"}), Warning, "a person answered at"},
		{"answered, then nothing", activity(toolAt(40*time.Minute, "Bash", "x"), hook.Event{Time: now.Add(-40 * time.Minute), Kind: hook.Ask, Detail: "permission", Tool: "Bash"}, hook.Event{Time: now.Add(-11 * time.Minute), Kind: hook.ToolDone, Tool: "Bash"}), Error, "a person answered at"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, _ := Evaluate(now, snap, Config{Client: tc.client}, State{})
			f, _ := r.Finding(Inactivity)
			if f.Level != tc.level || !strings.Contains(f.Message, tc.msg) {
				t.Fatalf("inactivity = %v %q, want %v containing %q", f.Level, f.Message, tc.level, tc.msg)
			}
		})
	}
}

func TestToolLoop(t *testing.T) {
	same := func(n int) []hook.Event {
		var evs []hook.Event
		for range n {
			evs = append(evs, toolAt(time.Minute, "Bash", "npm test"))
		}
		return evs
	}
	alternating := func(n int) []hook.Event {
		var evs []hook.Event
		for range n {
			evs = append(evs, toolAt(time.Minute, "Read", "f"), toolAt(time.Minute, "Edit", "f"))
		}
		return evs
	}
	for _, tc := range []struct {
		name  string
		evs   []hook.Event
		level Level
		msg   string
	}{
		{"seven", same(7), OK, "Bash repeated 7 times (warning at 8)"},
		{"eight", same(8), Warning, "the same Bash call 8 times in a row (warning at 8, error at 16)"},
		{"sixteen", same(16), Error, "the same Bash call 16 times"},
		{"alternating", alternating(8), Warning, "the same Edit and Read call 8 times"},
		{"broken by another call", append(same(7), append([]hook.Event{toolAt(time.Minute, "Read", "log")}, same(7)...)...), OK, "repeated 7 times"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := Config{Client: activity(tc.evs...)}
			r, _ := Evaluate(now, scan.Snapshot{}, cfg, State{})
			f, _ := r.Finding(ToolLoop)
			if f.Level != tc.level || !strings.Contains(f.Message, tc.msg) || (f.Level > OK) != (f.Notice != "") {
				t.Fatalf("tool_loop = %v %q (notice %q), want %v containing %q", f.Level, f.Message, f.Notice, tc.level, tc.msg)
			}
			cfg.Language = lang.Japanese
			rj, _ := Evaluate(now, scan.Snapshot{}, cfg, State{})
			if fj, _ := rj.Finding(ToolLoop); f.Notice != "" && !japanese(fj.Notice) {
				t.Errorf("Japanese notice = %q", fj.Notice)
			}
		})
	}
}

func TestWaitingForYou(t *testing.T) {
	asked := activity(hook.Event{Time: now.Add(-3 * time.Minute), Kind: hook.Tool, Tool: "Bash", Input: "x"},
		hook.Event{Time: now.Add(-2 * time.Minute), Kind: hook.Ask, Tool: "Bash", Detail: "permission"})
	r, _ := Evaluate(now, scan.Snapshot{}, Config{Client: asked}, State{})
	f, _ := r.Finding(WaitingForYou)
	// The line is kept in the day and the alerts file: an age in it would freeze.
	if f.Level != Warning || !strings.Contains(f.Message, "permission to use Bash") || !strings.Contains(f.Message, "since 11:58:00:") || strings.Contains(f.Message, "ago") || f.Notice != "" {
		t.Fatalf("waiting_for_you = %+v", f)
	}
	asked.Apply(hook.Event{Time: now.Add(-time.Minute), Kind: hook.ToolDone, Tool: "Bash"})
	r, _ = Evaluate(now, scan.Snapshot{}, Config{Client: asked}, State{})
	if f, _ := r.Finding(WaitingForYou); f.Level != OK {
		t.Fatalf("still waiting after the tool ran: %+v", f)
	}
}

// A freshly wired workspace has heard no hook event yet: its checks say so,
// not that there are no hooks; and one tool call is one call.
func TestBeforeTheFirstHookEvent(t *testing.T) {
	snap := withLogs(scan.Snapshot{}, logAgo(time.Minute, "thinking"))
	r, _ := Evaluate(now, snap, Config{}, State{})
	for _, c := range []string{ToolLoop, WaitingForYou} {
		f, _ := r.Finding(c)
		if f.Level != OK || !strings.HasPrefix(f.Message, "no hook event yet") || strings.Contains(f.Message, "no hooks") {
			t.Errorf("%s before any hook event = %v %q, want ok, \"no hook event yet…\"", c, f.Level, f.Message)
		}
	}
	snap = withLogs(scan.Snapshot{}, logAgo(20*time.Minute, "thinking"))
	r, _ = Evaluate(now, snap, Config{Client: activity(hook.Event{Time: now.Add(-time.Minute), Kind: hook.TurnStart}, toolAt(20*time.Second, "Bash", "x"))}, State{})
	if f, _ := r.Finding(Inactivity); !strings.Contains(f.Message, "busy: 1 tool call in 5m,") {
		t.Errorf("inactivity with one tool call = %q, want \"busy: 1 tool call in 5m, …\"", f.Message)
	}
}

// Busy in its client's tools past the error the hooks alone hold off, the
// agent is not stuck: the notice never tells it so, nor to stop what it
// is doing, in either language; it asks for a checkpoint at its next step.
func TestBusyErrorIsNotStuck(t *testing.T) {
	snap := withLogs(scan.Snapshot{}, logAgo(40*time.Minute, "thinking"))
	evs := []hook.Event{{Time: now.Add(-31 * time.Minute), Kind: hook.TurnStart}}
	for i := range 14 {
		evs = append(evs, toolAt(time.Duration(280-i*20)*time.Second, "Bash", string(rune('a'+i))))
	}
	for _, tc := range []struct {
		l         lang.Lang
		want, bad []string
	}{
		{lang.English, []string{"while your client's tools kept busy", "checkpoint of what you are doing"}, []string{"stuck", "stop what you were doing"}},
		{lang.Japanese, []string{"クライアントのツールは動き続けていました", "チェックポイントに書き"}, []string{"行き詰まっている", "していたことをやめ"}},
	} {
		r, _ := Evaluate(now, snap, Config{Client: activity(evs...), Language: tc.l}, State{})
		f, _ := r.Finding(Inactivity)
		if f.Level != Error {
			t.Fatalf("%s: inactivity %v, want the error the hooks alone no longer hold off", tc.l, f.Level)
		}
		for _, w := range tc.want {
			if !strings.Contains(f.Notice, w) {
				t.Errorf("%s: the notice lacks %q:\n%s", tc.l, w, f.Notice)
			}
		}
		for _, b := range tc.bad {
			if strings.Contains(f.Notice, b) {
				t.Errorf("%s: the notice says %q to a busy agent:\n%s", tc.l, b, f.Notice)
			}
		}
	}
}
