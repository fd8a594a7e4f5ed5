package hook

import (
	"fmt"
	"testing"
	"time"
)

func TestActivity(t *testing.T) {
	t0 := time.Date(2026, 11, 25, 14, 2, 0, 0, time.UTC)
	var a Activity
	at := func(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }
	a.Apply(Event{Time: at(0), Kind: TurnStart})
	if !a.Wired || !a.InTurn || !a.TurnStart.Equal(t0) {
		t.Fatalf("after a turn start: %+v", a)
	}
	for i := range 14 {
		a.Apply(Event{Time: at(10 + i*20), Kind: Tool, Tool: "Bash", Input: string(rune('a' + i))})
	}
	if n := a.Busy(at(300)); n != 14 || a.LastTool != "Bash" || a.Repeats != 1 {
		t.Fatalf("Busy = %d, last %q, repeats %d; want 14 different Bash calls", n, a.LastTool, a.Repeats)
	}
	if n := a.Busy(at(300 + 300)); n >= 14 {
		t.Fatalf("Busy 5 minutes later = %d, want the old calls out of the window", n)
	}
	a.Apply(Event{Time: at(400), Kind: Ask, Detail: "permission_prompt"})
	if !a.Asking || !a.AskSince.Equal(at(400)) {
		t.Fatalf("not asking after a permission prompt: %+v", a)
	}
	a.Apply(Event{Time: at(410), Kind: Other, Detail: "idle_prompt"})
	if !a.Asking {
		t.Fatal("a notification ended the question")
	}
	a.Apply(Event{Time: at(420), Kind: ToolDone, Tool: "Bash"})
	if a.Asking {
		t.Fatal("still asking after the tool ran (the person answered)")
	}
	a.Apply(Event{Time: at(430), Kind: TurnEnd})
	if a.InTurn || !a.TurnEnd.Equal(at(430)) {
		t.Fatalf("after the turn's end: %+v", a)
	}
	a.Apply(Event{Time: at(440), Kind: Failure, Detail: "rate_limit"})
	if a.Failure != "rate_limit" {
		t.Fatalf("failure not kept: %+v", a)
	}
	a.Apply(Event{Time: at(450), Kind: TurnStart})
	if a.Failure != "" {
		t.Fatalf("a new turn kept the old failure: %+v", a)
	}
}

func TestActivityLoops(t *testing.T) {
	t0 := time.Date(2026, 11, 25, 14, 2, 0, 0, time.UTC)
	call := func(tool, in string) Event { return Event{Time: t0, Kind: Tool, Tool: tool, Input: in} }
	for _, tc := range []struct {
		name    string
		calls   []Event
		repeats int
		tools   string
	}{
		{"same call", []Event{call("Bash", "x"), call("Bash", "x"), call("Bash", "x")}, 3, "Bash"},
		{"same tool, other input", []Event{call("Bash", "x"), call("Bash", "y"), call("Bash", "x"), call("Bash", "z")}, 1, "Bash"},
		{"alternating", []Event{call("Read", "f"), call("Edit", "f"), call("Read", "f"), call("Edit", "f"), call("Read", "f"), call("Edit", "f")}, 3, "Edit and Read"},
		{"broken run", []Event{call("Bash", "x"), call("Bash", "x"), call("Read", "f"), call("Bash", "x")}, 1, "Bash"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var a Activity
			for _, e := range tc.calls {
				a.Apply(e)
			}
			if a.Repeats != tc.repeats || a.LoopTools != tc.tools {
				t.Fatalf("Repeats = %d (%s), want %d (%s)", a.Repeats, a.LoopTools, tc.repeats, tc.tools)
			}
		})
	}
}

func TestActivityRunning(t *testing.T) {
	t0 := time.Date(2026, 11, 25, 14, 2, 0, 0, time.UTC)
	var a Activity
	a.Apply(Event{Time: t0, Kind: Tool, Tool: "Bash", Input: "x"})
	if a.Running != "Bash" {
		t.Fatalf("running %q after a tool's start", a.Running)
	}
	a.Apply(Event{Time: t0, Kind: Ask, Detail: "permission"})
	if a.Running != "Bash" {
		t.Fatal("a permission prompt ended the call")
	}
	a.Apply(Event{Time: t0, Kind: ToolDone, Tool: "Bash"})
	if a.Running != "" {
		t.Fatalf("running %q after the tool ended", a.Running)
	}
	a.Apply(Event{Time: t0, Kind: Tool, Tool: "Read"})
	a.Apply(Event{Time: t0, Kind: TurnEnd})
	if a.Running != "" {
		t.Fatal("a turn's end left a call running")
	}
}

// Claude Code's PermissionDenied (its auto mode's classifier said no) is a
// refused call: the turn's refusals name the tool, count every call, and
// a new turn starts them afresh. A forged spool naming many tools keeps
// MaxRefusedTools names and counts the rest.
func TestActivityRefusals(t *testing.T) {
	t0 := time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC)
	e := Event{Time: t0, Client: "claude-code", Name: "PermissionDenied", Kind: Refused, Tool: "Bash"} // as internal/clients parses it
	var a Activity
	a.Apply(Event{Time: t0, Kind: TurnStart})
	a.Apply(Event{Time: t0, Kind: Tool, Tool: "Bash"})
	a.Apply(e)
	a.Apply(Event{Time: t0, Kind: Tool, Tool: "Read"})
	a.Apply(Event{Time: t0, Kind: ToolDone, Tool: "Read"})
	if r := a.Refusals; r.Refused != 1 || r.Calls != 2 || len(r.Tools) != 1 || r.Tools[0] != "Bash" || !r.At.Equal(t0) || a.Running != "" {
		t.Fatalf("refusals %+v, running %q: want Bash refused, 1 of 2 calls", r, a.Running)
	}
	for i := range 3 * MaxRefusedTools {
		a.Apply(Event{Time: t0, Kind: Refused, Tool: fmt.Sprintf("forged_%d", i%(2*MaxRefusedTools))})
	}
	if r := a.Refusals; r.Refused != 1+3*MaxRefusedTools || len(r.Tools) != MaxRefusedTools {
		t.Fatalf("refusals %d naming %d tools, want %d naming %d", r.Refused, len(r.Tools), 1+3*MaxRefusedTools, MaxRefusedTools)
	}
	a.Apply(Event{Time: t0.Add(time.Minute), Kind: TurnStart})
	if r := a.Refusals; r.Refused != 0 || r.Calls != 0 || r.Tools != nil {
		t.Fatalf("a new turn kept the last one's refusals: %+v", r)
	}
}

// A client version is a version number or nothing: the status line is
// the agent's to pipe.
func TestClientVersion(t *testing.T) {
	for in, want := range map[string]string{
		"2.1.337": "2.1.337", "2.1.197": "2.1.197", "": "", "2.1": "", "2.1.337; rm -rf /": "", "1e9": "",
		"2.1.337\u001b[2J": "", "11111111.11111111.1": "", "-2.1.3": "", "2..1.3": "",
	} {
		if got := ClientVersion(in); got != want {
			t.Errorf("ClientVersion(%q) = %q, want %q", in, got, want)
		}
	}
}
