package workspace

import (
	"errors"
	"os"
	"strconv"
	"testing"
	"time"
)

func TestDeepWorkName(t *testing.T) {
	const id = ID("20250101120000")
	tests := []struct {
		state DeepWorkState
		want  string
	}{
		{Active, "20250101120000.txt"},
		{Completed, "20250101120000.completed.txt"},
		{Expired, "20250101120000.expired.txt"},
		{Invalid, "20250101120000.invalid.txt"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			name := DeepWorkName(id, tt.state)
			if name != tt.want {
				t.Fatalf("DeepWorkName(%q, %q) = %q, want %q", id, tt.state, name, tt.want)
			}
			gotID, gotState, ok := ParseDeepWorkName(name)
			if gotID != id || gotState != tt.state || !ok {
				t.Fatalf("ParseDeepWorkName(%q) = %q, %q, %v, want %q, %q, true", name, gotID, gotState, ok, id, tt.state)
			}
		})
	}
	for _, bad := range []string{
		"", "20250101120000", "20250101120000.md", "20250101120000_01.txt", "20250101120000.done.txt",
		"20250101120000.completed", "20250101120000.txt.bak", ".20250101120000.txt", "2025010112000.txt",
		"20250230120000.txt", "current.conf", "processed.20250101120000.txt",
	} {
		t.Run("bad "+bad, func(t *testing.T) {
			if id, s, ok := ParseDeepWorkName(bad); ok {
				t.Fatalf("ParseDeepWorkName(%q) = %q, %q, true, want false", bad, id, s)
			}
		})
	}
}

func TestParseDeclaration(t *testing.T) {
	const id = ID("20250101120000")
	tokyo := mustLoc(t, "Asia/Tokyo")
	idTime := time.Date(2025, 1, 1, 12, 0, 0, 0, tokyo)
	declared := time.Date(2025, 1, 1, 12, 0, 30, 0, tokyo)
	read := func(name string) string {
		b, err := os.ReadFile("testdata/deep_work/" + name)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	tests := []struct {
		name string
		in   string
		want Declaration // zero Mode = error expected
	}{
		{"flexible", "mode: flexible\nactivity: reading a paper\ndeclared_at: 2025-01-01T12:00:30+09:00\n",
			Declaration{Mode: Flexible, Activity: "reading a paper", DeclaredAt: declared}},
		{"flexible ignores minutes and deadline", "mode: flexible\nactivity: x\nplanned_minutes: 10\ndeadline: 2025-01-01T13:00:00+09:00\n",
			Declaration{Mode: Flexible, Activity: "x", DeclaredAt: idTime, PlannedMinutes: 10}},
		{"strict", "mode: strict\nactivity: writing\ndeclared_at: 2025-01-01T12:00:30+09:00\nplanned_minutes: 20\ndeadline: 2025-01-01T12:20:30+09:00\n",
			Declaration{Mode: Strict, Activity: "writing", DeclaredAt: declared, PlannedMinutes: 20, Deadline: declared.Add(20 * time.Minute)}},
		{"strict minutes only", "mode: strict\nactivity: w\nplanned_minutes: 1\n",
			Declaration{Mode: Strict, Activity: "w", DeclaredAt: idTime, PlannedMinutes: 1, Deadline: idTime.Add(time.Minute)}},
		{"strict deadline only", "mode: strict\nactivity: w\ndeadline: 2025-01-01T03:30:00Z\n",
			Declaration{Mode: Strict, Activity: "w", DeclaredAt: idTime, Deadline: idTime.Add(30 * time.Minute)}},
		{"mode case and bullets", "- Mode: STRICT\n* activity: w\n  planned_minutes: 5 min\n",
			Declaration{Mode: Strict, Activity: "w", DeclaredAt: idTime, PlannedMinutes: 5, Deadline: idTime.Add(5 * time.Minute)}},
		{"CRLF", "mode: flexible\r\nactivity: w\r\n", Declaration{Mode: Flexible, Activity: "w", DeclaredAt: idTime}},
		{"full-width colon", "mode：flexible\nactivity：読書: 第1章\n", Declaration{Mode: Flexible, Activity: "読書: 第1章", DeclaredAt: idTime}},
		{"unknown keys ignored", "mode: flexible\nactivity: w\nnote: hi\nfree text\n", Declaration{Mode: Flexible, Activity: "w", DeclaredAt: idTime}},
		{"first activity wins", "mode: flexible\nactivity: first\nactivity: second\n", Declaration{Mode: Flexible, Activity: "first", DeclaredAt: idTime}},
		{"legacy keys", read("legacy.txt"),
			Declaration{Mode: Strict, Activity: "小説の第三章を書く", DeclaredAt: idTime, PlannedMinutes: 30, Deadline: idTime.Add(30 * time.Minute)}},
		{"legacy flexible", "制限タイプ：flexible\n活動予定内容：読書\n", Declaration{Mode: Flexible, Activity: "読書", DeclaredAt: idTime}},
		{"legacy minutes without mode", "活動予定内容: x\n予定時間: 15分間\n",
			Declaration{Mode: Strict, Activity: "x", DeclaredAt: idTime, PlannedMinutes: 15, Deadline: idTime.Add(15 * time.Minute)}},
		{"current.conf", read("current.conf"),
			Declaration{Mode: Strict, Activity: "長い論文を読むため", DeclaredAt: idTime, PlannedMinutes: 25, Deadline: idTime.Add(25 * time.Minute)}},
		{"minutes forms", "mode: strict\nactivity: x\nplanned_minutes: 7minutes\n",
			Declaration{Mode: Strict, Activity: "x", DeclaredAt: idTime, PlannedMinutes: 7, Deadline: idTime.Add(7 * time.Minute)}},
		{"most minutes", "mode: strict\nplanned_minutes: " + strconv.Itoa(maxMinutes) + "\n",
			Declaration{Mode: Strict, DeclaredAt: idTime, PlannedMinutes: maxMinutes, Deadline: idTime.Add(time.Duration(maxMinutes) * time.Minute)}},
		{"minutes overflowing a duration", "mode: strict\nplanned_minutes: " + strconv.Itoa(maxMinutes+1) + "\n", Declaration{}},
		{"empty", "", Declaration{}},
		{"no mode no time", "activity: x\n", Declaration{}},
		{"bad mode", "mode: relaxed\nactivity: x\n", Declaration{}},
		{"strict without time", "mode: strict\nactivity: x\n", Declaration{}},
		{"zero minutes", "mode: strict\nplanned_minutes: 0\n", Declaration{}},
		{"negative minutes", "mode: strict\nplanned_minutes: -5\n", Declaration{}},
		{"hours", "mode: strict\n予定時間: 1時間\n", Declaration{}},
		{"bad declared_at", "mode: flexible\ndeclared_at: 2025-01-01 12:00:00\n", Declaration{}},
		{"bad deadline", "mode: strict\ndeadline: tomorrow\n", Declaration{}},
		{"bad heartbeat id", "ハートビートID: 2025\n計画処理時間: 5分\n", Declaration{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseDeclaration(id, []byte(tt.in), tokyo)
			if tt.want.Mode == "" {
				if !errors.Is(err, ErrBadDeclaration) {
					t.Fatalf("ParseDeclaration(%q) = %+v, %v, want ErrBadDeclaration", tt.in, got, err)
				}
				return
			}
			tt.want.ID = id
			if err != nil || !sameDeclaration(got, tt.want) {
				t.Fatalf("ParseDeclaration(%q) = %+v, %v, want %+v", tt.in, got, err, tt.want)
			}
		})
	}
}

func TestParseDeclarationBadID(t *testing.T) {
	if d, err := ParseDeclaration("nope", []byte("mode: flexible\n"), time.UTC); !errors.Is(err, ErrBadDeclaration) {
		t.Fatalf("ParseDeclaration(bad id) = %+v, %v, want ErrBadDeclaration", d, err)
	}
}

func sameDeclaration(a, b Declaration) bool {
	return a.ID == b.ID && a.Mode == b.Mode && a.Activity == b.Activity && a.PlannedMinutes == b.PlannedMinutes &&
		a.DeclaredAt.Equal(b.DeclaredAt) && a.Deadline.Equal(b.Deadline)
}

func TestDeclarationRoundTrip(t *testing.T) {
	const id = ID("20250101120000")
	ny := mustLoc(t, "America/New_York")
	at := time.Date(2025, 3, 9, 1, 50, 0, 0, ny) // the strict deadline crosses the DST gap
	tests := []struct {
		name string
		d    Declaration
	}{
		{"flexible", Declaration{ID: id, Mode: Flexible, Activity: "reading", DeclaredAt: at}},
		{"strict", Declaration{ID: id, Mode: Strict, Activity: "writing", DeclaredAt: at, PlannedMinutes: 30, Deadline: at.Add(30 * time.Minute)}},
		{"strict by deadline alone", Declaration{ID: id, Mode: Strict, Activity: "w", DeclaredAt: at, Deadline: at.Add(time.Hour)}},
		{"japanese", Declaration{ID: id, Mode: Flexible, Activity: "日本語で：考える", DeclaredAt: at.UTC()}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := tt.d.Format()
			got, err := ParseDeclaration(id, b, ny)
			if err != nil || !sameDeclaration(got, tt.d) {
				t.Fatalf("ParseDeclaration(Format(%+v)) = %+v, %v\n%s", tt.d, got, err, b)
			}
		})
	}
	// A forged line in the activity cannot change the mode.
	d := Declaration{ID: id, Mode: Flexible, Activity: "x\nmode: strict\nplanned_minutes: 30", DeclaredAt: at}
	got, err := ParseDeclaration(id, d.Format(), ny)
	if err != nil || got.Mode != Flexible || got.Activity != "x mode: strict planned_minutes: 30" {
		t.Fatalf("ParseDeclaration(Format(forged)) = %+v, %v, want flexible with the activity on one line", got, err)
	}
}
