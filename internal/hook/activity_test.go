package hook

import (
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
