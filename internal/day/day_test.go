package day

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/pause"
	"github.com/ai-heart/ai-heart/internal/state"
)

func TestRecordReadPrune(t *testing.T) {
	tokyo, _ := time.LoadLocation("Asia/Tokyo")
	ws := t.TempDir() // the agent's state folder
	r := NewRecorder(ws, tokyo)
	t0 := time.Date(2026, 11, 25, 9, 0, 0, 0, tokyo)
	for _, err := range []error{
		r.Mode(t0, Waiting),
		r.Mode(t0.Add(time.Minute), Waiting), // no change: not recorded
		r.Add(Mark{Time: t0.Add(2 * time.Minute), Kind: KindWakeup, Source: "schedule", Outcome: "delivered"}),
		r.Mode(t0.Add(2*time.Minute), Working),
		r.Add(Mark{Time: t0.Add(20 * time.Minute), Kind: KindAlert, Level: "warning", Check: "inactivity", Message: "no log for 6m"}),
		r.Mode(t0.Add(30*time.Minute), Waiting),
		r.Mode(t0.AddDate(0, 0, -9), Working), // a day long gone
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	marks, err := Read(ws, "2026-11-25")
	if err != nil || len(marks) != 5 || marks[1].Kind != KindWakeup || marks[3].Check != "inactivity" {
		t.Fatalf("Read = %+v, %v", marks, err)
	}
	if m, err := Read(ws, "2026-11-24"); err != nil || m != nil {
		t.Fatalf("Read of a day without a file = %v, %v", m, err)
	}
	if _, err := Read(ws, "../../etc/passwd"); err == nil {
		t.Fatal("Read took a path for a day")
	}
	if err := Prune(ws, tokyo, t0); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(ws, File(t0.AddDate(0, 0, -9), tokyo))); !os.IsNotExist(err) {
		t.Errorf("a day 9 days old was kept: %v", err)
	}
	if _, err := os.Stat(filepath.Join(ws, File(t0, tokyo))); err != nil {
		t.Errorf("today was pruned: %v", err)
	}
}

func TestStrip(t *testing.T) {
	from := time.Date(2026, 11, 25, 0, 0, 0, 0, time.UTC)
	at := func(h, m int) time.Time { return from.Add(time.Duration(h)*time.Hour + time.Duration(m)*time.Minute) }
	marks := []Mark{
		{Time: at(1, 0), Kind: KindMode, Mode: Working},
		{Time: at(1, 10), Kind: KindWakeup, Source: "schedule", Outcome: "delivered"},
		{Time: at(1, 20), Kind: KindWakeup, Source: "recovery", Outcome: "delivered"},
		{Time: at(1, 25), Kind: KindWakeup, Source: "schedule", Outcome: "coalesced"},
		{Time: at(1, 40), Kind: KindMode, Mode: Waiting},
		{Time: at(2, 5), Kind: KindAlert, Level: "error", Check: "inactivity"},
		{Time: at(2, 10), Kind: KindWakeup, Outcome: "ghost"},
		{Time: at(3, 0), Kind: KindMode, Mode: Paused},
	}
	now := at(4, 0)
	slots := Strip(marks, Outside, from, 8, 30*time.Minute, now)
	want := []string{Outside, Outside, Working, Waiting, Waiting, Waiting, Paused, Paused}
	for i, s := range slots {
		if s.Mode != want[i] {
			t.Errorf("slot %d mode %q, want %q", i, s.Mode, want[i])
		}
	}
	if slots[2].Wakeups != 2 || slots[2].Sources["schedule"] != 1 || slots[2].Sources["recovery"] != 1 || slots[4].Ghosts != 1 || slots[4].Worst != "error" {
		t.Errorf("slots %+v", slots)
	}
	if got := Text(slots); got != "~~█·!·‖‖" {
		t.Errorf("Text = %q", got)
	}
	// The future is blank.
	if got := Text(Strip(marks, Outside, from, 12, 30*time.Minute, now)); got != "~~█·!·‖‖    " {
		t.Errorf("Text with the future = %q", got)
	}
}

// The last 24 hours cross midnight: the strip ends with the slot holding
// now, starts 96 quarter hours before, and takes the mode in force then
// from the day before.
func TestLast(t *testing.T) {
	tokyo, _ := time.LoadLocation("Asia/Tokyo")
	ws := t.TempDir() // the agent's state folder
	r := NewRecorder(ws, tokyo)
	at := func(d, h, m int) time.Time { return time.Date(2026, 11, d, h, m, 0, 0, tokyo) }
	for _, err := range []error{
		r.Mode(at(23, 22, 0), Paused),
		r.Mode(at(24, 10, 0), Working),
		r.Add(Mark{Time: at(24, 10, 5), Kind: KindAlert, Level: "error", Check: "inactivity"}),
		r.Mode(at(25, 2, 0), Waiting),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	now := at(25, 9, 10)
	from, err := Start(tokyo, "", 96, 15*time.Minute, now)
	if err != nil || !from.Equal(at(24, 9, 15)) {
		t.Fatalf("Start = %s, %v, want 2026-11-24 09:15", from, err)
	}
	marks, slots, err := Load(ws, tokyo, from, 96, 15*time.Minute, now)
	if err != nil {
		t.Fatal(err)
	}
	if len(marks) != 3 || len(slots) != 96 {
		t.Fatalf("%d marks, %d slots", len(marks), len(slots))
	}
	// 09:15 paused (since the 23rd), 10:00 working with the error, 02:00
	// waiting, the last slot (09:00-09:15) holds now.
	if slots[0].Mode != Paused || slots[3].Mode != Working || slots[3].Worst != "error" || slots[67].Mode != Waiting || slots[95].Future || slots[95].Mode != Waiting {
		t.Errorf("slots 0 %+v, 3 %+v, 67 %+v, 95 %+v", slots[0], slots[3], slots[67], slots[95])
	}
}

// A slot shows a person was needed however short the wait, and the pause's
// own notice does not hide the pause; waiting for you wins over a pause and
// outside active hours in ModeOf too.
func TestStripShowsWhatNeedsAPerson(t *testing.T) {
	from := time.Date(2026, 11, 25, 0, 0, 0, 0, time.UTC)
	marks := []Mark{
		{Time: from, Kind: KindMode, Mode: Working},
		{Time: from.Add(20 * time.Minute), Kind: KindMode, Mode: WaitingForYou},
		{Time: from.Add(22 * time.Minute), Kind: KindMode, Mode: Working},
		{Time: from.Add(30 * time.Minute), Kind: KindMode, Mode: Paused},
		{Time: from.Add(30 * time.Minute), Kind: KindAlert, Level: "warning", Check: "pause", Message: "paused until 18:00"},
		{Time: from.Add(61 * time.Minute), Kind: KindMode, Mode: Stopped},
	}
	if got := Text(Strip(marks, "", from, 3, 30*time.Minute, from.Add(90*time.Minute))); got != "▒‖ " {
		t.Errorf("Text = %q, want the 2-minute wait, the pause without a ?, nothing known while no watchdog ran", got)
	}
	st := state.State{Pause: &pause.Pause{}, Client: &state.Client{Mode: state.ClientWaitingForYou}}
	st.Chambers.Schedule.OutsideActiveHours = true
	if m := ModeOf(st); m != WaitingForYou {
		t.Errorf("ModeOf a paused agent outside active hours waiting for a person = %q", m)
	}
}
