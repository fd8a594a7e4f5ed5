package workspace

import (
	"errors"
	"testing"
	"time"
)

func TestParseID(t *testing.T) {
	tests := []struct {
		name string
		in   string
		ok   bool
	}{
		{"valid", "20250101120000", true},
		{"leap day", "20240229235959", true},
		{"end of year", "20251231235959", true},
		{"year zero", "00000101000000", true},
		{"13 digits", "2025010112000", false},
		{"15 digits", "202501011200000", false},
		{"empty", "", false},
		{"letters", "2025010112000a", false},
		{"leading space", " 2025010112000", false},
		{"trailing newline", "2025010112000\n", false},
		{"sign", "+2025010112000", false},
		{"full-width digits", "２０２５０１０１１２００００", false},
		{"february 30", "20250230120000", false},
		{"february 29 non-leap", "20250229120000", false},
		{"month 13", "20251301120000", false},
		{"month 00", "20250001120000", false},
		{"day 00", "20250100120000", false},
		{"day 32", "20250132120000", false},
		{"april 31", "20250431120000", false},
		{"hour 23", "20250101230000", true},
		{"hour 24", "20250101240000", false},
		{"minute 59", "20250101125900", true},
		{"minute 60", "20250101126000", false},
		{"second 59", "20250101120059", true},
		{"second 60", "20250101120060", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			id, err := ParseID(tt.in)
			if tt.ok {
				if err != nil || id != ID(tt.in) {
					t.Fatalf("ParseID(%q) = %q, %v, want %q, nil", tt.in, id, err, tt.in)
				}
				return
			}
			if !errors.Is(err, ErrBadID) || id != "" {
				t.Fatalf("ParseID(%q) = %q, %v, want \"\", ErrBadID", tt.in, id, err)
			}
		})
	}
}

func mustLoc(t testing.TB, name string) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation(name)
	if err != nil {
		t.Fatalf("LoadLocation(%q): %v", name, err)
	}
	return loc
}

func TestIDTimeRoundTrip(t *testing.T) {
	ny := mustLoc(t, "America/New_York")
	tokyo := mustLoc(t, "Asia/Tokyo")
	tests := []struct {
		name string
		t    time.Time
	}{
		{"local", time.Date(2025, 6, 1, 9, 30, 15, 0, time.Local)},
		{"utc", time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)},
		{"tokyo", time.Date(2025, 12, 31, 23, 59, 59, 0, tokyo)},
		{"new york before spring gap", time.Date(2025, 3, 9, 1, 59, 59, 0, ny)},
		{"new york after spring gap", time.Date(2025, 3, 9, 3, 0, 0, 0, ny)},
		{"new york first 01:30 of fall fold", time.Date(2025, 11, 2, 1, 30, 0, 0, ny)},
		{"new york after fall fold", time.Date(2025, 11, 2, 2, 0, 0, 0, ny)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			id := NewID(tt.t)
			if _, err := ParseID(string(id)); err != nil {
				t.Fatalf("ParseID(NewID(%v)) = %v", tt.t, err)
			}
			got, err := id.Time(tt.t.Location())
			if err != nil || !got.Equal(tt.t) {
				t.Fatalf("ID(%q).Time(%v) = %v, %v, want %v", id, tt.t.Location(), got, err, tt.t)
			}
		})
	}
}

func TestIDTimeDST(t *testing.T) {
	ny := mustLoc(t, "America/New_York")
	// The second 01:30 of 2025-11-02 (EST) has the same ID as the first
	// (EDT); Time picks the earlier instant.
	second := time.Date(2025, 11, 2, 6, 30, 0, 0, time.UTC).In(ny)
	id := NewID(second)
	if id != "20251102013000" {
		t.Fatalf("NewID(%v) = %q, want 20251102013000", second, id)
	}
	got, err := id.Time(ny)
	if want := second.Add(-time.Hour); err != nil || !got.Equal(want) {
		t.Fatalf("ID(%q).Time(NY) = %v, %v, want %v", id, got, err, want)
	}
	// 02:30 on 2025-03-09 does not exist in New York (NewID never mints
	// it); reading one still works and lands within an hour of the gap.
	gap := ID("20250309023000")
	got, err = gap.Time(ny)
	lo, hi := time.Date(2025, 3, 9, 6, 30, 0, 0, time.UTC), time.Date(2025, 3, 9, 7, 30, 0, 0, time.UTC)
	if err != nil || got.Before(lo) || got.After(hi) {
		t.Fatalf("ID(%q).Time(NY) = %v, %v, want between %v and %v", gap, got, err, lo, hi)
	}
	// The same ID names different instants in different zones.
	tokyo := mustLoc(t, "Asia/Tokyo")
	u, _ := ID("20250101120000").Time(time.UTC)
	k, _ := ID("20250101120000").Time(tokyo)
	if d := u.Sub(k); d != 9*time.Hour {
		t.Fatalf("UTC - Tokyo reading of one ID = %v, want 9h", d)
	}
}

func TestIDTimeBad(t *testing.T) {
	for _, s := range []string{"", "2025", "20250230120000x", "abcdefghijklmn"} {
		t.Run(s, func(t *testing.T) {
			if got, err := ID(s).Time(time.UTC); !errors.Is(err, ErrBadID) {
				t.Fatalf("ID(%q).Time(UTC) = %v, %v, want ErrBadID", s, got, err)
			}
		})
	}
}

func TestIDPrefix(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want ID
		ok   bool
	}{
		{"bare id", "20250101120000", "20250101120000", true},
		{"log", "20250101120000.md", "20250101120000", true},
		{"sequenced log", "20250101120000_02.md", "20250101120000", true},
		{"sequenced 99", "20250101120000_99.md", "20250101120000", true},
		{"theme start record", "20250101120000_start_my-theme.md", "20250101120000", true},
		{"theme end record", "20250101120000_end_テーマ.md", "20250101120000", true},
		{"theme folder", "20250101120000_my-theme", "20250101120000", true},
		{"deep work", "20250101120000.txt", "20250101120000", true},
		{"deep work completed", "20250101120000.completed.txt", "20250101120000", true},
		{"13 digits", "2025010112000.md", "", false},
		{"15 digits", "202501011200000.md", "", false},
		{"dash after id", "20250101120000-x.md", "", false},
		{"letter after id", "20250101120000a.md", "", false},
		{"impossible date", "20250230120000.md", "", false},
		{"dot file", ".20250101120000.md", "", false},
		{"theme_histories", "theme_histories", "", false},
		{"short", "2025", "", false},
		{"empty", "", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := IDPrefix(tt.in)
			if got != tt.want || ok != tt.ok {
				t.Fatalf("IDPrefix(%q) = %q, %v, want %q, %v", tt.in, got, ok, tt.want, tt.ok)
			}
		})
	}
}
