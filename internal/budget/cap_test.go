package budget

import (
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
	_ "time/tzdata" // the DST cases must not depend on the machine's zoneinfo

	"github.com/ai-heart/ai-heart/internal/statefile"
	"github.com/ai-heart/ai-heart/internal/testutil"
)

// stateDir is an agent's state folder in a test.
type stateDir string

func newWS(t *testing.T) stateDir { return stateDir(t.TempDir()) }

func (d stateDir) Path(name string) string { return filepath.Join(string(d), name) }

func (d stateDir) WriteFile(name string, b []byte) error { return os.WriteFile(d.Path(name), b, 0o600) }

func mustLoc(t *testing.T, name string) *time.Location { return testutil.Loc(t, name) }

func openCap(t *testing.T, ws stateDir, limit int, loc *time.Location) *DailyCap {
	t.Helper()
	c, err := OpenDailyCap(string(ws), limit, loc)
	if err != nil {
		t.Fatalf("OpenDailyCap: %v", err)
	}
	return c
}

// TestDay pins the local date of instants either side of local midnight on
// DST days, independently of time.Date's handling of gaps.
func TestDay(t *testing.T) {
	tests := []struct {
		name string
		loc  string
		utc  string
		want string
	}{
		{"NY spring, last second before midnight EST", "America/New_York", "2026-03-08T04:59:59Z", "2026-03-07"},
		{"NY spring, midnight EST", "America/New_York", "2026-03-08T05:00:00Z", "2026-03-08"},
		{"NY spring, 23:59:59 EDT", "America/New_York", "2026-03-09T03:59:59Z", "2026-03-08"},
		{"NY spring, next midnight EDT (23h later)", "America/New_York", "2026-03-09T04:00:00Z", "2026-03-09"},
		{"NY fall, 23:59:59 EST (25h day)", "America/New_York", "2026-11-02T04:59:59Z", "2026-11-01"},
		{"NY fall, next midnight EST", "America/New_York", "2026-11-02T05:00:00Z", "2026-11-02"},
		{"Berlin spring, 23:59:59 CEST", "Europe/Berlin", "2026-03-29T21:59:59Z", "2026-03-29"},
		{"Berlin spring, next midnight CEST", "Europe/Berlin", "2026-03-29T22:00:00Z", "2026-03-30"},
		{"Berlin fall, 23:59:59 CET", "Europe/Berlin", "2026-10-25T22:59:59Z", "2026-10-25"},
		{"Berlin fall, next midnight CET", "Europe/Berlin", "2026-10-25T23:00:00Z", "2026-10-26"},
		{"Tokyo is a day ahead of UTC evening", "Asia/Tokyo", "2026-03-07T15:00:00Z", "2026-03-08"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			at, err := time.Parse(time.RFC3339, tt.utc)
			if err != nil {
				t.Fatal(err)
			}
			if got := Day(at, mustLoc(t, tt.loc)); got != tt.want {
				t.Errorf("Day(%s, %s) = %s, want %s", tt.utc, tt.loc, got, tt.want)
			}
		})
	}
}

// TestDailyCapDST walks a cap of 2 through each DST day: the evening before,
// just after midnight, across the skipped or repeated hour, the late evening
// (which a "reset every 24h" counter gets wrong on 23h and 25h days) and the
// next midnight.
func TestDailyCapDST(t *testing.T) {
	type step struct {
		name      string
		at        time.Time
		ok, alert bool
		day       string
	}
	days := []struct {
		name string
		loc  string
		y    int
		m    time.Month
		d    int
	}{
		{"America/New_York spring forward", "America/New_York", 2026, time.March, 8},
		{"America/New_York fall back", "America/New_York", 2026, time.November, 1},
		{"Europe/Berlin spring forward", "Europe/Berlin", 2026, time.March, 29},
		{"Europe/Berlin fall back", "Europe/Berlin", 2026, time.October, 25},
	}
	for _, dd := range days {
		t.Run(dd.name, func(t *testing.T) {
			loc := mustLoc(t, dd.loc)
			at := func(dayOffset, h, m int) time.Time {
				return time.Date(dd.y, dd.m, dd.d+dayOffset, h, m, 0, 0, loc)
			}
			before := at(-1, 0, 0).Format(time.DateOnly)
			dst := at(0, 0, 0).Format(time.DateOnly)
			after := at(1, 0, 0).Format(time.DateOnly)
			// A minute before the clocks change, and an hour after that: across
			// the gap (spring) or inside the repeated hour (fall).
			justBefore := transition(t, at(0, 0, 0)).Add(-time.Minute)
			acrossHour := justBefore.Add(time.Hour)
			steps := []step{
				{"23:30 the day before", at(-1, 23, 30), true, false, before},
				{"23:45 the day before", at(-1, 23, 45), true, false, before},
				{"23:59 the day before is over the cap", at(-1, 23, 59), false, true, before},
				{"00:30 starts the DST day", at(0, 0, 30), true, false, dst},
				{"a minute before the change", justBefore, true, false, dst},
				{"an hour later, across the change, is over the cap", acrossHour, false, true, dst},
				{"23:30 still the DST day", at(0, 23, 30), false, false, dst},
				{"23:59 still the DST day", at(0, 23, 59), false, false, dst},
				{"next midnight resets", at(1, 0, 0), true, false, after},
			}
			c := openCap(t, newWS(t), 2, loc)
			for _, s := range steps {
				ok, alert, err := c.Take(s.at)
				if err != nil {
					t.Fatalf("%s: Take: %v", s.name, err)
				}
				if ok != s.ok || alert != s.alert {
					t.Errorf("%s: Take(%s) = ok %v alert %v, want ok %v alert %v", s.name, s.at, ok, alert, s.ok, s.alert)
				}
				if got := c.State(s.at).Day; got != s.day {
					t.Errorf("%s: State(%s).Day = %s, want %s", s.name, s.at, got, s.day)
				}
			}
		})
	}
}

// transition returns the first instant after from whose UTC offset differs
// from from's (to the minute), failing the test if there is none within a day.
func transition(t *testing.T, from time.Time) time.Time {
	t.Helper()
	_, off := from.Zone()
	for at := from; at.Before(from.Add(24 * time.Hour)); at = at.Add(time.Minute) {
		if _, o := at.Zone(); o != off {
			return at
		}
	}
	t.Fatalf("no offset change within a day of %s", from)
	return time.Time{}
}

func TestDailyCapFallBackRepeatedHour(t *testing.T) {
	loc := mustLoc(t, "America/New_York")
	first := time.Date(2026, 11, 1, 1, 30, 0, 0, loc) // 01:30 EDT
	second := first.Add(time.Hour)                    // 01:30 EST
	if first.In(loc).Hour() != second.In(loc).Hour() {
		t.Fatalf("setup: %s and %s should share the wall clock", first, second)
	}
	c := openCap(t, newWS(t), 1, loc)
	if ok, _, _ := c.Take(first); !ok {
		t.Fatalf("Take(%s) refused, want ok", first)
	}
	if ok, alert, _ := c.Take(second); ok || !alert {
		t.Errorf("Take(%s) = ok %v alert %v, want dropped with alert (same day)", second, ok, alert)
	}
}

func TestDailyCapThreshold(t *testing.T) {
	now := time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC)
	tests := []struct {
		name        string
		limit, take int
		wantUsed    int
		wantDropped int
		wantAlerts  int
	}{
		{"one under the cap", 5, 4, 4, 0, 0},
		{"at the cap", 5, 5, 5, 0, 0},
		{"one over the cap", 5, 6, 5, 1, 1},
		{"far over the cap alerts once", 5, 9, 5, 4, 1},
		{"unlimited", 0, 100, 100, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := openCap(t, newWS(t), tt.limit, time.UTC)
			alerts := 0
			for i := range tt.take {
				_, alert, err := c.Take(now.Add(time.Duration(i) * time.Minute))
				if err != nil {
					t.Fatal(err)
				}
				if alert {
					alerts++
				}
			}
			got := c.State(now)
			want := CapState{Day: "2026-05-01", Used: tt.wantUsed, Limit: tt.limit, Dropped: tt.wantDropped}
			if got != want || alerts != tt.wantAlerts {
				t.Errorf("after %d Takes: State = %+v, alerts %d; want %+v, alerts %d", tt.take, got, alerts, want, tt.wantAlerts)
			}
		})
	}
}

func TestDailyCapConcurrent(t *testing.T) {
	for _, limit := range []int{30, 0} {
		t.Run(map[int]string{30: "limit 30", 0: "unlimited"}[limit], func(t *testing.T) {
			ws := newWS(t)
			now := time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC)
			c := openCap(t, ws, limit, time.UTC)
			var (
				wg                       sync.WaitGroup
				mu                       sync.Mutex
				oks, drops, alerts, errs int
			)
			for range 50 {
				wg.Go(func() {
					ok, alert, err := c.Take(now)
					mu.Lock()
					defer mu.Unlock()
					switch {
					case err != nil:
						errs++
					case ok:
						oks++
					default:
						drops++
					}
					if alert {
						alerts++
					}
				})
			}
			wg.Wait()
			wantOK, wantDrops, wantAlerts := 30, 20, 1
			if limit == 0 {
				wantOK, wantDrops, wantAlerts = 50, 0, 0
			}
			if oks != wantOK || drops != wantDrops || alerts != wantAlerts || errs != 0 {
				t.Errorf("50 concurrent Takes: ok %d dropped %d alerts %d errors %d; want %d %d %d 0", oks, drops, alerts, errs, wantOK, wantDrops, wantAlerts)
			}
			want := CapState{Day: "2026-05-01", Used: wantOK, Limit: limit, Dropped: wantDrops}
			if got := c.State(now); got != want {
				t.Errorf("State = %+v, want %+v (no count lost)", got, want)
			}
			if got := openCap(t, ws, limit, time.UTC).State(now); got != want {
				t.Errorf("reopened State = %+v, want %+v (no count lost)", got, want)
			}
		})
	}
}

func TestDailyCapSurvivesRestart(t *testing.T) {
	loc := mustLoc(t, "Asia/Tokyo")
	ws := newWS(t)
	day := time.Date(2026, 5, 1, 9, 0, 0, 0, loc)
	c := openCap(t, ws, 3, loc)
	for range 2 {
		if ok, _, err := c.Take(day); !ok || err != nil {
			t.Fatalf("Take = %v, %v; want ok", ok, err)
		}
	}

	c = openCap(t, ws, 3, loc) // restart
	if ok, _, _ := c.Take(day.Add(time.Hour)); !ok {
		t.Fatal("third Take after restart refused, want ok (3 of 3)")
	}
	if ok, alert, _ := c.Take(day.Add(2 * time.Hour)); ok || !alert {
		t.Fatalf("fourth Take = ok %v alert %v, want dropped with alert", ok, alert)
	}

	c = openCap(t, ws, 3, loc) // restart: the day's alert was already given
	if ok, alert, _ := c.Take(day.Add(3 * time.Hour)); ok || alert {
		t.Errorf("Take after second restart = ok %v alert %v, want dropped without alert", ok, alert)
	}
	if got, want := c.State(day), (CapState{Day: "2026-05-01", Used: 3, Limit: 3, Dropped: 2}); got != want {
		t.Errorf("State = %+v, want %+v", got, want)
	}

	c = openCap(t, ws, 5, loc) // restart with a raised cap
	if ok, _, _ := c.Take(day.Add(4 * time.Hour)); !ok {
		t.Error("Take after raising the cap refused, want ok")
	}

	next := time.Date(2026, 5, 2, 0, 0, 0, 0, loc)
	c = openCap(t, ws, 3, loc)
	if got, want := c.State(next), (CapState{Day: "2026-05-02", Limit: 3}); got != want {
		t.Errorf("State on the next day = %+v, want %+v", got, want)
	}
	if ok, alert, _ := c.Take(next); !ok || alert {
		t.Errorf("first Take of the next day = ok %v alert %v, want ok", ok, alert)
	}
}

func TestDailyCapClockStepsBack(t *testing.T) {
	c := openCap(t, newWS(t), 1, time.UTC)
	late := time.Date(2026, 5, 2, 0, 10, 0, 0, time.UTC)
	if ok, _, _ := c.Take(late); !ok {
		t.Fatal("Take refused, want ok")
	}
	back := late.Add(-20 * time.Minute) // the previous date
	if ok, _, _ := c.Take(back); ok {
		t.Errorf("Take(%s) after Take(%s) = ok, want dropped: a clock stepping back must not reopen a day", back, late)
	}
	if got := c.State(back).Day; got != "2026-05-02" {
		t.Errorf("State(%s).Day = %s, want 2026-05-02", back, got)
	}
}

// TestOpenDailyCapCorrupt: an unreadable cap file (the agent may have
// written it) spends the day instead of resetting the count.
func TestOpenDailyCapCorrupt(t *testing.T) {
	now := time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC)
	tests := []struct {
		name, content string
	}{
		{"not JSON", "{\"day\": "},
		{"bad day", `{"day":"yesterday","used":1}`},
		{"negative count", `{"day":"2026-05-01","used":-4}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ws := newWS(t)
			if err := ws.WriteFile(DailyCapFile, []byte(tt.content)); err != nil {
				t.Fatal(err)
			}
			c, err := OpenDailyCap(string(ws), 2, time.UTC)
			if !errors.Is(err, statefile.ErrCorrupt) || c == nil {
				t.Fatalf("OpenDailyCap = %v, %v; want a usable cap and ErrCorrupt", c, err)
			}
			// The agent can write the file: a bad one never grants a fresh
			// budget. The day counts as spent, and the file is repaired so.
			if ok, alert, err := c.Take(now); ok || !alert || err != nil {
				t.Fatalf("Take = %v, %v, %v; want dropped (the day counts as spent), alerted once, no error", ok, alert, err)
			}
			again, err := OpenDailyCap(string(ws), 2, time.UTC)
			if err != nil {
				t.Fatalf("reopen after Take: %v, want the file repaired", err)
			}
			if st := again.State(now); st.Used != 2 {
				t.Errorf("reopened State = %+v, want the day spent (used 2 of 2)", st)
			}
			if ok, _, _ := again.Take(now.Add(24 * time.Hour)); !ok {
				t.Error("Take the next day = dropped, want a fresh budget")
			}
		})
	}
}

func TestDailyCapOpenAndStateDoNotWrite(t *testing.T) {
	ws := newWS(t)
	c := openCap(t, ws, 2, time.UTC)
	c.State(time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC))
	if _, err := os.Stat(ws.Path(DailyCapFile)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Stat(%s) = %v, want not exist", DailyCapFile, err)
	}
	if _, err := OpenDailyCap(string(ws), -1, time.UTC); err == nil {
		t.Error("OpenDailyCap(limit -1) = nil error, want one")
	}
}
