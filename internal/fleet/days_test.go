package fleet

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/day"
)

func member(agent, mode string, online bool, seen time.Time) Member {
	return Member{Pulse: Pulse{Agent: agent, Mode: mode}, LastSeen: seen, Online: online}
}

// A view's day of an agent: each change of mode once, offline when the
// view judged it so, the alerts as they arrived; the mode in force at
// midnight comes from the day before.
func TestDaysKeepWhatTheViewHeard(t *testing.T) {
	loc := time.FixedZone("JST", 9*3600)
	d := NewDays(loc, 0)
	t0 := time.Date(2026, 11, 24, 23, 0, 0, 0, loc)
	d.Heard(member("luna", day.Working, true, t0), t0)
	d.Heard(member("luna", day.Working, true, t0.Add(time.Minute)), t0.Add(time.Minute)) // no change
	d.Heard(member("luna", day.Waiting, true, t0.Add(2*time.Hour)), t0.Add(2*time.Hour))
	d.Heard(member("luna", "dancing", true, t0.Add(3*time.Hour)), t0.Add(3*time.Hour)) // not a mode
	d.Heard(member("luna", "", true, t0.Add(3*time.Hour)), t0.Add(3*time.Hour))        // an older watchdog's state
	d.Heard(member("luna", day.Waiting, false, t0.Add(3*time.Hour)), t0.Add(4*time.Hour))
	d.Alert(Alert{Agent: "luna", Level: "error", Check: "inactivity", Message: strings.Repeat("あ", 100)}, t0.Add(150*time.Minute))
	d.Alert(Alert{Agent: "luna", Level: "fatal", Check: "inactivity"}, t0.Add(150*time.Minute)) // not a level

	midnight := time.Date(2026, 11, 25, 0, 0, 0, 0, loc)
	marks, prior, ok := d.Span("luna", midnight, midnight.AddDate(0, 0, 1))
	if !ok || prior != day.Working {
		t.Fatalf("prior %q ok %v: want working from the day before", prior, ok)
	}
	var got []string
	for _, m := range marks {
		got = append(got, m.Time.In(loc).Format("15:04")+" "+m.Kind+" "+m.Mode+m.Level)
	}
	if want := "01:00 mode waiting, 01:30 alert error, 03:00 mode offline"; strings.Join(got, ", ") != want {
		t.Errorf("marks %s, want %s", strings.Join(got, ", "), want)
	}
	if msg := marks[1].Message; len(msg) > maxAlertMessage+len("…") || !strings.HasSuffix(msg, "あ…") {
		t.Errorf("the alert's message kept %d bytes (%q): want at most %d, whole characters", len(msg), msg, maxAlertMessage)
	}
	slots := day.Strip(marks, prior, midnight, 4, time.Hour, t0.Add(5*time.Hour))
	if slots[0].Mode != day.Working || slots[1].Mode != day.Waiting || slots[1].Worst != "error" || slots[3].Mode != day.Offline {
		t.Errorf("strip %+v", slots)
	}
	if _, _, ok := d.Span("sol", midnight, midnight.AddDate(0, 0, 1)); ok {
		t.Error("an agent never heard has a day")
	}
}

// What a peer sends cannot grow the days without bound: modes and alerts
// per agent, the agents themselves, and the days kept.
func TestDaysAreBounded(t *testing.T) {
	d := NewDays(time.UTC, 3)
	t0 := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	at := t0
	for i := range MaxDayModes + 50 {
		at = t0.Add(time.Duration(i) * time.Second)
		d.Heard(member("luna", []string{day.Working, day.Waiting}[i%2], true, at), at)
		d.Alert(Alert{Agent: "luna", Level: "warning", Check: "x"}, at)
	}
	h := d.agents["luna"]
	if len(h.modes) != MaxDayModes || len(h.alerts) != MaxDayAlerts {
		t.Errorf("kept %d modes and %d alerts, want %d and %d", len(h.modes), len(h.alerts), MaxDayModes, MaxDayAlerts)
	}
	// Four agents in a book of three: the quietest goes.
	for i, a := range []string{"a", "b", "c"} {
		d.Heard(member(a, day.Working, true, at.Add(time.Duration(i+1)*time.Second)), at)
	}
	if _, _, ok := d.Span("luna", t0, at); ok || len(d.agents) != 3 {
		t.Errorf("agents %v: want luna, the quietest, forgotten for c", len(d.agents))
	}
	// A week later only the last mode before the oldest day stays.
	d.Heard(member("a", day.Waiting, true, at.Add(time.Hour)), at.Add(time.Hour))
	d.Heard(member("a", day.Working, true, at.Add(2*time.Hour)), at.Add(2*time.Hour))
	d.Alert(Alert{Agent: "a", Level: "warning", Check: "x"}, at.Add(2*time.Hour))
	later := at.AddDate(0, 0, day.Keep+1)
	d.Heard(member("a", day.Paused, true, later), later)
	if n, al := len(d.agents["a"].modes), len(d.agents["a"].alerts); n != 2 || al != 0 {
		t.Errorf("a keeps %d modes and %d alerts a week later, want 2 (the one in force, the new one) and none", n, al)
	}
	lm := time.Date(later.Year(), later.Month(), later.Day(), 0, 0, 0, 0, time.UTC)
	marks, prior, _ := d.Span("a", lm, lm.AddDate(0, 0, 1))
	if prior != day.Working || len(marks) != 1 {
		t.Errorf("a's day %s: prior %q, %d marks", later.Format(time.DateOnly), prior, len(marks))
	}
}

func BenchmarkDaysHeard(b *testing.B) {
	d := NewDays(time.UTC, 1000)
	t0 := time.Now()
	for i := 0; b.Loop(); i++ {
		at := t0.Add(time.Duration(i) * time.Second)
		d.Heard(member(fmt.Sprintf("agent-%04d", i%1000), []string{day.Working, day.Waiting}[i/1000%2], true, at), at)
	}
}

// BenchmarkDaysFull measures the days at their bounds: 1,000 agents, each
// with MaxDayModes changes of mode and MaxDayAlerts alerts of the longest
// message kept (the worst case docs/fleet.md states). Run: go test ./internal/fleet -run '^$' -bench DaysFull -benchtime 1x.
func BenchmarkDaysFull(b *testing.B) {
	for b.Loop() {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		d := NewDays(time.UTC, 1000)
		t0 := time.Now()
		msg := strings.Repeat("x", 400)
		for a := range 1000 {
			name := fmt.Sprintf("agent-%04d", a)
			for i := range MaxDayModes {
				at := t0.Add(time.Duration(i) * time.Second)
				d.Heard(member(name, []string{day.Working, day.Waiting}[i%2], true, at), at)
			}
			for range MaxDayAlerts {
				d.Alert(Alert{Agent: name, Level: "warning", Check: strings.Repeat("c", 100), Message: msg}, t0)
			}
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/1e6, "MB")
		runtime.KeepAlive(d)
	}
}
