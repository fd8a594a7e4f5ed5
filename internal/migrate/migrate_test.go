package migrate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/testutil"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// fixtureTime is the modification time of fixture files not named by an ID.
var fixtureTime = time.Date(2025, 7, 20, 9, 45, 0, 0, time.UTC)

// legacyWorkspace copies testdata/legacy into a temp folder and gives files
// named by a heartbeat ID that ID's time plus a minute, as the old system
// would have left them.
func legacyWorkspace(t *testing.T) *workspace.Workspace {
	t.Helper()
	dst := t.TempDir()
	for _, rel := range testutil.CopyTree(t, filepath.Join("testdata", "legacy"), dst) {
		mt := fixtureTime
		if id, ok := workspace.IDPrefix(filepath.Base(rel)); ok {
			it, _ := id.Time(time.UTC)
			mt = it.Add(time.Minute)
		}
		if err := os.Chtimes(filepath.Join(dst, rel), mt, mt); err != nil {
			t.Fatal(err)
		}
	}
	ws, err := workspace.New(dst, time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	return ws
}

func read(t *testing.T, ws *workspace.Workspace, rel string) string {
	t.Helper()
	b, err := os.ReadFile(ws.Path(rel))
	if err != nil {
		t.Fatalf("read %s: %v", rel, err)
	}
	return string(b)
}

func fixture(t *testing.T, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "legacy", filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestRunLegacyWorkspace(t *testing.T) {
	ws := legacyWorkspace(t)
	rep, err := Run(ws)
	if err != nil {
		t.Fatalf("Run() = %v", err)
	}
	if !rep.Found || rep.Conflicts() != 0 || !rep.Changed() {
		t.Fatalf("Run() = found %v, %d conflicts, changed %v; want found, 0, changed\n%v", rep.Found, rep.Conflicts(), rep.Changed(), rep.Steps)
	}

	const wantDecl = "mode: strict\n" +
		"activity: メロディ全体の下書きを一気に作成するため\n" +
		"declared_at: 2025-07-20T09:45:00Z\n" +
		"planned_minutes: 20\n" +
		"deadline: 2025-07-20T10:05:00Z\n"
	files := []struct {
		name, rel, want string
	}{
		{"current.conf converted", "stats/deep_work/20250720094500.txt", wantDecl},
		{"processed copied, ID from content", "stats/deep_work/20250720080000.completed.txt", fixture(t, "stats/extended_processing/processed.current.conf")},
		{"expired copied, ID from name", "stats/deep_work/20250719230000.expired.txt", fixture(t, "stats/extended_processing/expired.20250719230000.conf")},
	}
	for _, f := range files {
		t.Run(f.name, func(t *testing.T) {
			if got := read(t, ws, f.rel); got != f.want {
				t.Errorf("%s = %q, want %q", f.rel, got, f.want)
			}
			fi, _ := os.Stat(ws.Path(f.rel))
			if !fi.ModTime().Equal(fixtureTime) {
				t.Errorf("%s mtime = %v, want the old file's %v", f.rel, fi.ModTime(), fixtureTime)
			}
		})
	}
	d, err := workspace.ParseDeclaration("20250720094500", []byte(read(t, ws, "stats/deep_work/20250720094500.txt")), time.UTC)
	if err != nil || d.Mode != workspace.Strict || d.PlannedMinutes != 20 {
		t.Errorf("converted declaration reads back as %+v, %v; want strict 20 min", d, err)
	}

	if _, err := os.Stat(ws.Path(workspace.LegacyDeepWorkDir)); !os.IsNotExist(err) {
		t.Errorf("old folder still at %s (err %v), want it renamed", workspace.LegacyDeepWorkDir, err)
	}
	for _, name := range []string{"current.conf", "processed.current.conf", "expired.20250719230000.conf", "memo.txt"} {
		rel := "stats/extended_processing.migrated/" + name
		if got := read(t, ws, rel); got != fixture(t, "stats/extended_processing/"+name) {
			t.Errorf("%s changed: %q", rel, got)
		}
	}
	var skipped bool
	for _, s := range rep.Steps {
		if s.Kind == Skipped && strings.HasSuffix(s.From, "memo.txt") {
			skipped = true
		}
	}
	if !skipped {
		t.Errorf("memo.txt not reported as skipped: %v", rep.Steps)
	}

	l := rep.Latest
	switch {
	case l.Log == nil || l.Log.Path != "artifacts/20250720090000_ai_music/histories/20250720094500.md":
		t.Errorf("latest log = %+v, want the 20250720094500 log", l.Log)
	case l.Introspection == nil || l.Introspection.Path != "artifacts/20250720090000_ai_music/histories/20250720093000.md":
		t.Errorf("latest introspection = %+v, want the 20250720093000 log (内省)", l.Introspection)
	case l.Checkpoint == nil || l.Checkpoint.Message != "作曲ツールのエラー原因の調査中":
		t.Errorf("latest checkpoint = %+v, want the legacy free-text one", l.Checkpoint)
	}
	if _, err := os.Stat(ws.Path(workspace.LatestFile)); err != nil {
		t.Errorf("latest-proof index not written: %v", err)
	}
}

func TestRunTwiceChangesNothing(t *testing.T) {
	ws := legacyWorkspace(t)
	if _, err := Run(ws); err != nil {
		t.Fatal(err)
	}
	before := testutil.Snapshot(t, ws.Root)
	rep, err := Run(ws)
	if err != nil {
		t.Fatalf("second Run() = %v", err)
	}
	if rep.Found || rep.Changed() || len(rep.Steps) != 0 {
		t.Errorf("second Run() = found %v, steps %v; want nothing to do", rep.Found, rep.Steps)
	}
	if d := testutil.Diff(before, testutil.Snapshot(t, ws.Root)); len(d) > 0 {
		t.Errorf("second Run() changed the workspace: %v", d)
	}
}

func TestRunConflict(t *testing.T) {
	ws := legacyWorkspace(t)
	clash := "stats/deep_work/20250720080000.completed.txt"
	if err := ws.WriteFile(clash, []byte("mode: flexible\nactivity: written by the new tools\n")); err != nil {
		t.Fatal(err)
	}
	rep, err := Run(ws)
	if err != nil {
		t.Fatalf("Run() = %v", err)
	}
	if rep.Conflicts() != 1 {
		t.Fatalf("Run() reported %d conflicts, want 1: %v", rep.Conflicts(), rep.Steps)
	}
	if got := read(t, ws, clash); got != "mode: flexible\nactivity: written by the new tools\n" {
		t.Errorf("conflicting target was clobbered: %q", got)
	}
	if _, err := os.Stat(ws.Path(workspace.LegacyDeepWorkDir, "processed.current.conf")); err != nil {
		t.Errorf("old folder must stay in place while a conflict is open: %v", err)
	}
	if _, err := os.Stat(ws.Path("stats/deep_work/20250720094500.txt")); err != nil {
		t.Errorf("files without a conflict must still be migrated: %v", err)
	}

	t.Run("rerun changes nothing", func(t *testing.T) {
		before := testutil.Snapshot(t, ws.Root)
		rep, err := Run(ws)
		if err != nil || rep.Conflicts() != 1 || rep.Changed() {
			t.Fatalf("rerun = %v, %d conflicts, changed %v; want 1 conflict, no change", err, rep.Conflicts(), rep.Changed())
		}
		if d := testutil.Diff(before, testutil.Snapshot(t, ws.Root)); len(d) > 0 {
			t.Errorf("rerun changed the workspace: %v", d)
		}
	})
	t.Run("resolved", func(t *testing.T) {
		if err := ws.Rename(clash, "stats/deep_work/aside.txt"); err != nil {
			t.Fatal(err)
		}
		rep, err := Run(ws)
		if err != nil || rep.Conflicts() != 0 {
			t.Fatalf("Run() after resolving = %v, %v", err, rep.Steps)
		}
		if _, err := os.Stat(ws.Path("stats/extended_processing.migrated")); err != nil {
			t.Errorf("old folder not renamed after resolving: %v", err)
		}
	})
}

// TestRunUnreadableTarget: a target that exists but cannot be read (here a
// folder) is an I/O failure reported as such, not a content conflict.
func TestRunUnreadableTarget(t *testing.T) {
	ws := legacyWorkspace(t)
	clash := "stats/deep_work/20250720080000.completed.txt"
	if err := os.MkdirAll(ws.Path(clash), 0o755); err != nil {
		t.Fatal(err)
	}
	rep, err := Run(ws)
	if err == nil || !strings.Contains(err.Error(), clash) || rep.Conflicts() != 0 {
		t.Fatalf("Run() = %v, %d conflicts; want the read error of %s and no conflict", err, rep.Conflicts(), clash)
	}
	if _, err := os.Stat(ws.Path(workspace.LegacyDeepWorkDir)); err != nil {
		t.Errorf("old folder must stay in place: %v", err)
	}
}

func TestRunMigratedBefore(t *testing.T) {
	ws := legacyWorkspace(t)
	if err := os.MkdirAll(ws.Path("stats/extended_processing.migrated"), 0o755); err != nil {
		t.Fatal(err)
	}
	rep, err := Run(ws)
	if err != nil {
		t.Fatal(err)
	}
	last := rep.Steps[len(rep.Steps)-1]
	if last.Kind != Renamed || last.To != "stats/extended_processing.migrated.2/" {
		t.Errorf("last step = %v, want a rename to stats/extended_processing.migrated.2/", last)
	}
}

func TestRunNoLegacyFolder(t *testing.T) {
	ws, err := workspace.New(t.TempDir(), time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	if err := ws.EnsureSkeleton(); err != nil {
		t.Fatal(err)
	}
	rep, err := Run(ws)
	if err != nil || rep.Found || len(rep.Steps) != 0 {
		t.Fatalf("Run() = %v, %+v; want nothing to migrate", err, rep)
	}
}

func TestTarget(t *testing.T) {
	ws, _ := workspace.New(t.TempDir(), time.UTC)
	tests := []struct {
		name     string
		file     string
		data     string
		wantName string // "" = left in place
		wantKind Kind
	}{
		{"current.conf", "current.conf", "ハートビートID: 20250720094500\n計画処理時間: 20分\n理由: 作業\n", "20250720094500.txt", Converted},
		{"current.conf full-width colon", "current.conf", "ハートビートID：20250720094500\n計画処理時間：5分\n", "20250720094500.txt", Converted},
		{"current.conf without time", "current.conf", "ハートビートID: 20250720094500\n理由: 作業\n", "20250720094500.invalid.txt", Invalid},
		{"current.conf without ID", "current.conf", "計画処理時間: 20分\n", "", Skipped},
		{"current.conf with bad ID", "current.conf", "ハートビートID: 2025-07-20\n計画処理時間: 20分\n", "", Skipped},
		{"processed, ID in content", "processed.current.conf", "ハートビートID: 20250720080000\n", "20250720080000.completed.txt", Copied},
		{"processed, ID in name", "processed.20250720080000.conf", "理由: x\n", "20250720080000.completed.txt", Copied},
		{"content ID wins over name", "processed.20250101000000.conf", "ハートビートID: 20250720080000\n", "20250720080000.completed.txt", Copied},
		{"expired, ID in name", "expired.20250719230000.conf", "", "20250719230000.expired.txt", Copied},
		{"expired without ID", "expired.conf", "理由: x\n", "", Skipped},
		{"new-style name", "20250720100000.completed.txt", "mode: flexible\n", "20250720100000.completed.txt", Copied},
		{"unknown file", "memo.txt", "メモ\n", "", Skipped},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, kind, note := Target(tt.file, []byte(tt.data), ws)
			got := ""
			if f != nil {
				got = f.Name
			}
			if got != tt.wantName || kind != tt.wantKind {
				t.Errorf("Target(%q) = %q, %v (%s), want %q, %v", tt.file, got, kind, note, tt.wantName, tt.wantKind)
			}
		})
	}
}
