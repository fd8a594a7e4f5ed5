package day

import (
	"math"
	"testing"
	"time"
)

func TestMeasure(t *testing.T) {
	t0 := time.Date(2026, 12, 7, 0, 0, 0, 0, time.UTC)
	at := func(h float64) time.Time { return t0.Add(time.Duration(h * float64(time.Hour))) }
	marks := []Mark{
		{Time: at(0), Kind: KindMode, Mode: Working},
		{Time: at(1), Kind: KindWakeup, Source: "schedule", Outcome: "delivered"},
		{Time: at(1.5), Kind: KindWork, Source: "schedule", Message: "nothing changed"},
		{Time: at(2), Kind: KindWakeup, Source: "schedule", Outcome: "dropped_cap"},
		{Time: at(3), Kind: KindWakeup, Source: "schedule", Outcome: "ghost"},
		{Time: at(3.5), Kind: KindWork, Source: "schedule", Message: "2 files; said: \"x\""},
		{Time: at(4), Kind: KindMode, Mode: Paused},  // a person paused it: 4h supervised so far
		{Time: at(6), Kind: KindMode, Mode: Waiting}, // 2h paused
		{Time: at(7), Kind: KindAlert, Check: "gave_up", Level: "error", Message: "recovery failed 3 times"},
		{Time: at(8), Kind: KindAlert, Check: "service", Level: "ok", Message: "the rate limit reset at 08:00: wakeups resume"},
		{Time: at(8.1), Kind: KindWakeup, Source: "schedule", Outcome: "delivered"}, // 6 minutes after: resumed
		{Time: at(9), Kind: KindAlert, Check: "service", Level: "ok", Message: "the rate limit reset at 09:00: wakeups resume"},
		{Time: at(10), Kind: KindWakeup, Source: "feedback", Outcome: "delivered"}, // an hour after: not resumed in time; an intervention
		{Time: at(11), Kind: KindMode, Mode: WaitingForYou},
		{Time: at(11.5), Kind: KindMode, Mode: Working}, // answered: an intervention
	}
	n := Measure(marks, t0, at(12), "")
	want := Numbers{From: t0, To: at(12), Hours: 10, Stalls: 1, StallsPer24h: 2.4, Scheduled: 4, OnTime: 3, Resets: 2, Resumed: 1,
		Interventions: 3, HoursAlone: 2.5, Answered: 2, NothingChanged: 1}
	if math.Abs(n.StallsPer24h-want.StallsPer24h) < 1e-9 {
		n.StallsPer24h = want.StallsPer24h
	}
	if n != want {
		t.Fatalf("Measure =\n %+v, want\n %+v", n, want)
	}
	if f := n.Add(n); f.Stalls != 2 || f.Hours != 20 || f.HoursAlone != 20.0/7 {
		t.Fatalf("fleet %+v", f)
	}
}

func TestLoadField(t *testing.T) {
	dir := t.TempDir()
	loc := time.UTC
	now := time.Date(2026, 12, 7, 12, 0, 0, 0, loc)
	r := NewRecorder(dir, loc)
	r.Add(Mark{Time: now.Add(-30 * time.Hour), Kind: KindMode, Mode: Working})
	r.Add(Mark{Time: now.Add(-26 * time.Hour), Kind: KindAlert, Check: "gave_up", Level: "error"})
	r.Add(Mark{Time: now.Add(-2 * time.Hour), Kind: KindWork, Message: "nothing changed"})
	f, err := LoadField(dir, loc, now)
	if err != nil {
		t.Fatal(err)
	}
	if f.Today.Stalls != 0 || f.Week.Stalls != 1 || f.Today.Hours != 12 || f.Week.Hours != 30 || f.Today.NothingChanged != 1 {
		t.Fatalf("today %+v\nweek %+v", f.Today, f.Week)
	}
}
