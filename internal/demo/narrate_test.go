package demo

import (
	"strings"
	"testing"
	"time"
)

func TestNarratorFoldsRepeatedReplies(t *testing.T) {
	var b strings.Builder
	n := NewNarrator(&b, time.UTC)
	t0 := time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)
	at := func(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }
	n.Say(at(0), KindWakeup, "#1")
	n.Say(at(1), "tool", "start_deep_work strict")
	n.Say(at(1), KindAgent, "replies: heads-down")
	for i := 2; i <= 4; i++ {
		n.Say(at(4*i), KindWakeup, "#")
		n.Say(at(4*i+1), KindAgent, "replies: heads-down")
	}
	n.Say(at(20), KindWakeup, "#5")
	n.Say(at(21), KindAgent, "replies: done")
	n.Printf("end\n")
	want := strings.Join([]string{
		"09:00:00  wakeup    #1",
		"09:00:01  tool      start_deep_work strict",
		"09:00:01  agent     replies: heads-down",
		"09:00:17            … 3 more wakeups, each with the same reply",
		"09:00:20  wakeup    #5",
		"09:00:21  agent     replies: done",
		"end", ""}, "\n")
	if b.String() != want {
		t.Fatalf("got\n%s\nwant\n%s", b.String(), want)
	}
}
