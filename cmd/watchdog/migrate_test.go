package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/testutil"
)

// migrateFixture copies the legacy workspace fixture of internal/migrate
// into a temp folder.
func migrateFixture(t *testing.T) string {
	t.Helper()
	dst := t.TempDir()
	testutil.CopyTree(t, filepath.Join("..", "..", "internal", "migrate", "testdata", "legacy"), dst)
	return dst
}

func TestRunMigrateUsage(t *testing.T) {
	empty := t.TempDir()
	file := filepath.Join(empty, "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		want int
	}{
		{"no DIR", nil, 2},
		{"two DIRs", []string{"a", "b"}, 2},
		{"missing DIR", []string{filepath.Join(empty, "nope")}, 2},
		{"DIR is a file", []string{file}, 2},
		{"not a workspace", []string{empty}, 2},
		{"help", []string{"--help"}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			if got := runMigrate(context.Background(), tt.args, &out, &errb); got != tt.want {
				t.Errorf("runMigrate(%q) = %d, want %d; stderr:\n%s", tt.args, got, tt.want, errb.String())
			}
		})
	}
	if _, err := os.Stat(filepath.Join(empty, "stats")); err == nil {
		t.Errorf("migrate of a non-workspace created stats/")
	}
}

func TestRunMigrate(t *testing.T) {
	dir := migrateFixture(t)
	var out, errb bytes.Buffer
	if code := runMigrate(context.Background(), []string{dir}, &out, &errb); code != 0 {
		t.Fatalf("runMigrate() = %d; stderr:\n%s", code, errb.String())
	}
	for _, want := range []string{
		"converted", "stats/deep_work/20250720094500.txt",
		"stats/deep_work/20250720080000.completed.txt",
		"stats/deep_work/20250719230000.expired.txt",
		"stats/extended_processing.migrated/",
		"introspection artifacts/20250720090000_ai_music/histories/20250720093000.md",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	out.Reset()
	if code := runMigrate(context.Background(), []string{dir}, &out, &errb); code != 0 || !strings.Contains(out.String(), "nothing to migrate") {
		t.Errorf("second runMigrate() = %d:\n%s", code, out.String())
	}
}

func TestRunMigrateConflict(t *testing.T) {
	dir := migrateFixture(t)
	clash := filepath.Join(dir, "stats", "deep_work", "20250719230000.expired.txt")
	if err := os.MkdirAll(filepath.Dir(clash), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(clash, []byte("other\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if code := runMigrate(context.Background(), []string{dir}, &out, &errb); code != 1 {
		t.Fatalf("runMigrate() = %d, want 1; out:\n%s", code, out.String())
	}
	if !strings.Contains(errb.String(), "1 conflict") || !strings.Contains(out.String(), "conflict") {
		t.Errorf("conflict not reported:\n%s\n%s", out.String(), errb.String())
	}
	if b, _ := os.ReadFile(clash); string(b) != "other\n" {
		t.Errorf("conflicting file clobbered: %q", b)
	}
}

// TestRunMigrateTimezone: current.conf's heartbeat ID is read in the config's
// timezone, not Local, so the converted declaration's deadline is the ID's
// time there plus the planned minutes.
func TestRunMigrateTimezone(t *testing.T) {
	id := time.Date(2025, 7, 20, 9, 45, 0, 0, time.UTC) // the fixture's ハートビートID 20250720094500, 20分
	zone := "Asia/Tokyo"
	if _, off := id.In(time.Local).Zone(); off == 9*3600 {
		zone = "America/Los_Angeles" // Local is Tokyo's offset: pick a zone far from it
	}
	loc, err := time.LoadLocation(zone)
	if err != nil {
		t.Fatal(err)
	}
	dir := migrateFixture(t)
	cfgFile := filepath.Join(t.TempDir(), "watchdog.yaml")
	if err := os.WriteFile(cfgFile, []byte("timezone: "+zone+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if code := runMigrate(context.Background(), []string{"-c", cfgFile, dir}, &out, &errb); code != 0 {
		t.Fatalf("runMigrate(-c %s) = %d; stderr:\n%s", cfgFile, code, errb.String())
	}
	b, err := os.ReadFile(filepath.Join(dir, "stats", "deep_work", "20250720094500.txt"))
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(b), "\ndeadline: ")
	line, _, _ := strings.Cut(after, "\n")
	deadline, err := time.Parse(time.RFC3339, line)
	want := time.Date(2025, 7, 20, 9, 45, 0, 0, loc).Add(20 * time.Minute)
	if !ok || err != nil || !deadline.Equal(want) {
		t.Errorf("converted declaration's deadline = %q (%v), want %s (ID time in %s + 20 min):\n%s", line, err, want.Format(time.RFC3339), zone, b)
	}
}
