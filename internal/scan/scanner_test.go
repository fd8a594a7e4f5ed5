package scan

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/testutil"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// base is a fixed point in the past that every test file's mtime is set
// from, so "newest" never depends on how fast the test writes.
var base = time.Now().Add(-2 * time.Hour).Truncate(time.Second)

func newWS(t *testing.T) *workspace.Workspace {
	t.Helper()
	ws := testutil.Workspace(t, time.UTC)
	if err := ws.EnsureSkeleton(); err != nil {
		t.Fatal(err)
	}
	return ws
}

func newScanner(t *testing.T, ws *workspace.Workspace) *Scanner {
	t.Helper()
	s := NewScanner(ws)
	s.Logf = t.Logf
	t.Cleanup(func() { s.Close() })
	return s
}

func id(min int) workspace.ID {
	return workspace.NewID(base.Add(time.Duration(min) * time.Minute).UTC())
}

// put writes rel with data and sets its mtime to base+min minutes.
func put(t *testing.T, ws *workspace.Workspace, rel, data string, min int) string {
	t.Helper()
	abs := ws.Path(rel)
	if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(abs, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	mt := base.Add(time.Duration(min) * time.Minute)
	if err := os.Chtimes(abs, mt, mt); err != nil {
		t.Fatal(err)
	}
	return rel
}

func logText(typ string) string {
	return "# Activity log\n\n## Activity type\n" + typ + "\n\n## Activity content\n- did things\n"
}

// putLog writes a log named by the ID of minute min, with mtime at min.
func putLog(t *testing.T, ws *workspace.Workspace, theme, typ string, min int) string {
	t.Helper()
	return put(t, ws, "artifacts/"+theme+"/histories/"+string(id(min))+".md", logText(typ), min)
}

func scanOK(t *testing.T, s *Scanner) Snapshot {
	t.Helper()
	snap, err := s.Scan()
	if err != nil {
		t.Fatalf("Scan() error: %v", err)
	}
	return snap
}

func proofPath(p *workspace.Proof) string {
	if p == nil {
		return "<nil>"
	}
	return p.Path
}

const themeA, themeB = "20250101000000_alpha", "20250102000000_beta"

func TestFirstScanFindsNewest(t *testing.T) {
	ws := newWS(t)
	intro := putLog(t, ws, themeA, "introspection", 1)
	for m := 2; m <= 10; m++ {
		putLog(t, ws, themeA, "thinking", m)
	}
	jp := put(t, ws, "artifacts/"+themeB+"/histories/"+string(id(11))+"_01.md", "# 活動ログ\n## 活動種別\n内省\n## 活動内容\n- 振り返り\n", 11)
	newest := putLog(t, ws, themeB, "creation", 12)
	put(t, ws, "artifacts/"+themeB+"/histories/.tmp-123.md", logText("introspection"), 30)
	put(t, ws, "artifacts/"+themeB+"/histories/notes.md", logText("introspection"), 30)
	put(t, ws, "stats/checkpoints/"+string(id(5))+".txt", "10:00:00 first\n10:01:00 second\n", 13)
	put(t, ws, "stats/checkpoints/"+string(id(3))+".txt", "legacy text", 4)
	put(t, ws, "stats/checkpoints/.tmp.txt", "x", 40)

	snap := scanOK(t, newScanner(t, ws))
	if !snap.FullScan {
		t.Errorf("first scan FullScan = false, want true")
	}
	if proofPath(snap.LastLog) != newest || snap.LastLog.Type != workspace.Creation {
		t.Errorf("LastLog = %v, want %s (creation)", snap.LastLog, newest)
	}
	if len(snap.RecentLogs) != RecentLogCount {
		t.Fatalf("len(RecentLogs) = %d, want %d", len(snap.RecentLogs), RecentLogCount)
	}
	if snap.RecentLogs[1].Path != jp || snap.RecentLogs[1].Type != workspace.Introspection {
		t.Errorf("RecentLogs[1] = %+v, want %s read as introspection", snap.RecentLogs[1], jp)
	}
	for i := 1; i < len(snap.RecentLogs); i++ {
		if snap.RecentLogs[i].ModTime.After(snap.RecentLogs[i-1].ModTime) {
			t.Errorf("RecentLogs not newest first at %d", i)
		}
	}
	if proofPath(snap.LastIntrospection) != jp {
		t.Errorf("LastIntrospection = %s, want %s (not %s, older)", proofPath(snap.LastIntrospection), jp, intro)
	}
	if c := snap.LastCheckpoint; c == nil || c.ID != id(5) || c.Message != "second" {
		t.Errorf("LastCheckpoint = %+v, want ID %s message %q", c, id(5), "second")
	}
	if p := snap.NewestProof(); p == nil || p.Path != snap.LastCheckpoint.Path {
		t.Errorf("NewestProof() = %v, want the checkpoint (mtime 13 > 12)", p)
	}
}

func TestFirstScanIntrospectionFromIndex(t *testing.T) {
	ws := newWS(t)
	old := putLog(t, ws, themeA, "introspection", 1)
	for m := 2; m <= 80; m++ {
		putLog(t, ws, themeA, "thinking", m)
	}
	snap := scanOK(t, newScanner(t, ws))
	if snap.LastIntrospection != nil {
		t.Fatalf("without index: LastIntrospection = %s, want nil (beyond the names a scan reads)", proofPath(snap.LastIntrospection))
	}
	if err := ws.UpdateLatest(func(l *workspace.Latest) {
		l.Introspection = &workspace.Proof{Path: old, ID: id(1), Type: workspace.Introspection}
	}); err != nil {
		t.Fatal(err)
	}
	snap = scanOK(t, newScanner(t, ws))
	if proofPath(snap.LastIntrospection) != old {
		t.Errorf("with index: LastIntrospection = %s, want %s", proofPath(snap.LastIntrospection), old)
	}
}

func TestIncremental(t *testing.T) {
	tests := []struct {
		name   string
		change func(t *testing.T, ws *workspace.Workspace)
		check  func(t *testing.T, snap Snapshot)
	}{
		{"new log", func(t *testing.T, ws *workspace.Workspace) {
			putLog(t, ws, themeA, "introspection", 20)
		}, func(t *testing.T, snap Snapshot) {
			if snap.LastLog == nil || snap.LastLog.ID != id(20) || proofPath(snap.LastIntrospection) != snap.LastLog.Path {
				t.Errorf("LastLog = %v, LastIntrospection = %s, want the new introspection log", snap.LastLog, proofPath(snap.LastIntrospection))
			}
		}},
		{"new checkpoint", func(t *testing.T, ws *workspace.Workspace) {
			put(t, ws, "stats/checkpoints/"+string(id(21))+".txt", "12:00:00 still on it\n", 21)
		}, func(t *testing.T, snap Snapshot) {
			if c := snap.LastCheckpoint; c == nil || c.ID != id(21) || c.Message != "still on it" {
				t.Errorf("LastCheckpoint = %+v, want the new one", c)
			}
		}},
		{"in-place rewrite", func(t *testing.T, ws *workspace.Workspace) {
			put(t, ws, "artifacts/"+themeA+"/histories/"+string(id(5))+".md", logText("内省"), 22)
		}, func(t *testing.T, snap Snapshot) {
			if l := snap.LastLog; l == nil || l.ID != id(5) || l.Type != workspace.Introspection || !l.ModTime.Equal(base.Add(22*time.Minute)) {
				t.Errorf("LastLog = %+v, want the rewritten log %s as introspection", l, id(5))
			}
		}},
		{"dot-file ignored", func(t *testing.T, ws *workspace.Workspace) {
			put(t, ws, "artifacts/"+themeA+"/histories/.renameio-1.md", logText("creation"), 30)
			put(t, ws, "stats/checkpoints/.x.txt", "x", 30)
		}, func(t *testing.T, snap Snapshot) {
			if snap.LastLog.ID != id(5) || snap.LastCheckpoint.ID != id(6) {
				t.Errorf("LastLog = %v, LastCheckpoint = %v, want unchanged", snap.LastLog, snap.LastCheckpoint)
			}
		}},
		{"new theme folder", func(t *testing.T, ws *workspace.Workspace) {
			putLog(t, ws, "20250301000000_gamma", "observation", 23)
		}, func(t *testing.T, snap Snapshot) {
			if snap.LastLog == nil || snap.LastLog.ID != id(23) {
				t.Errorf("LastLog = %v, want the log in the new theme", snap.LastLog)
			}
		}},
		{"new subtheme folder", func(t *testing.T, ws *workspace.Workspace) {
			put(t, ws, "artifacts/"+themeA+"/subthemes/20250301000000_sub/histories/"+string(id(24))+".md", logText("creation"), 24)
		}, func(t *testing.T, snap Snapshot) {
			if snap.LastLog == nil || snap.LastLog.ID != id(24) {
				t.Errorf("LastLog = %v, want the log in the new subtheme", snap.LastLog)
			}
		}},
		{"histories created later", func(t *testing.T, ws *workspace.Workspace) {
			if err := os.MkdirAll(ws.Path("artifacts/"+themeB), 0o755); err != nil {
				t.Fatal(err)
			}
			putLog(t, ws, themeB, "creation", 25)
		}, func(t *testing.T, snap Snapshot) {
			if snap.LastLog == nil || snap.LastLog.ID != id(25) {
				t.Errorf("LastLog = %v, want the log in the late histories folder", snap.LastLog)
			}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ws := newWS(t)
			for m := 1; m <= 5; m++ {
				putLog(t, ws, themeA, "thinking", m)
			}
			put(t, ws, "stats/checkpoints/"+string(id(6))+".txt", "12:00:00 x\n", 4)
			s := newScanner(t, ws)
			scanOK(t, s)
			tc.change(t, ws)
			snap := scanOK(t, s)
			if snap.FullScan {
				t.Errorf("second scan FullScan = true (%s), want incremental", snap.Rescan)
			}
			if s.fullScans != 1 {
				t.Errorf("full scans = %d, want 1", s.fullScans)
			}
			tc.check(t, snap)
		})
	}
}

func TestInPlaceRewriteWithoutEvent(t *testing.T) {
	ws := newWS(t)
	rel := putLog(t, ws, themeA, "thinking", 1)
	s := newScanner(t, ws)
	scanOK(t, s)
	// Pretend the event was lost: the per-scan stat of the newest log must
	// still see the new modification time.
	put(t, ws, rel, logText("introspection"), 9)
	if err := s.barrier(); err != nil {
		t.Fatal(err)
	}
	s.w.take() // drop the events
	snap, _ := s.Scan()
	if snap.LastLog == nil || !snap.LastLog.ModTime.Equal(base.Add(9*time.Minute)) || snap.LastLog.Type != workspace.Introspection {
		t.Errorf("LastLog = %+v, want the rewrite seen", snap.LastLog)
	}
}

func TestRescan(t *testing.T) {
	tests := []struct {
		name   string
		change func(t *testing.T, ws *workspace.Workspace, s *Scanner)
		want   string // in Rescan
	}{
		{"newest log removed", func(t *testing.T, ws *workspace.Workspace, s *Scanner) {
			os.Remove(ws.Path("artifacts/" + themeA + "/histories/" + string(id(3)) + ".md"))
		}, "disappeared"},
		{"events lost", func(t *testing.T, ws *workspace.Workspace, s *Scanner) {
			s.w.mu.Lock()
			s.w.lost = "fsnotify: queue or buffer overflow"
			s.w.mu.Unlock()
		}, "overflow"},
		{"histories folder renamed", func(t *testing.T, ws *workspace.Workspace, s *Scanner) {
			if err := os.Rename(ws.Path("artifacts/"+themeB), ws.Path("artifacts/20250109000000_moved")); err != nil {
				t.Fatal(err)
			}
		}, "removed or renamed"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ws := newWS(t)
			putLog(t, ws, themeA, "thinking", 1)
			putLog(t, ws, themeB, "thinking", 2)
			putLog(t, ws, themeA, "thinking", 3)
			s := newScanner(t, ws)
			var logged []string
			s.Logf = func(f string, a ...any) { logged = append(logged, fmt.Sprintf(f, a...)) }
			scanOK(t, s)
			tc.change(t, ws, s)
			snap := scanOK(t, s)
			if !snap.FullScan || !strings.Contains(snap.Rescan, tc.want) {
				t.Errorf("Scan() FullScan = %v, Rescan = %q, want a rescan because %q", snap.FullScan, snap.Rescan, tc.want)
			}
			if len(logged) == 0 {
				t.Errorf("no log line for the rescan")
			}
			if snap.LastLog == nil {
				t.Errorf("LastLog = nil after rescan")
			}
			if snap = scanOK(t, s); snap.FullScan {
				t.Errorf("the scan after the rescan is full again (%s)", snap.Rescan)
			}
		})
	}
}

func TestSmallFolders(t *testing.T) {
	ws := newWS(t)
	// Deep work: new format, legacy Japanese, unreadable, two completed.
	put(t, ws, "stats/deep_work/"+string(id(10))+".txt", "mode: flexible\nactivity: writing\ndeclared_at: "+base.Add(10*time.Minute).Format(time.RFC3339)+"\n", 10)
	put(t, ws, "stats/deep_work/"+string(id(11))+".txt", "制限タイプ: strict\n活動予定内容: 画像生成\n予定時間: 20分\n", 11)
	put(t, ws, "stats/deep_work/"+string(id(12))+".txt", "mode: sometimes\n", 12)
	put(t, ws, "stats/deep_work/"+string(id(2))+".completed.txt", "mode: flexible\nactivity: a\n", 2)
	put(t, ws, "stats/deep_work/"+string(id(5))+".completed.txt", "mode: flexible\nactivity: b\n", 5)
	put(t, ws, "stats/deep_work/"+string(id(6))+".expired.txt", "mode: strict\nplanned_minutes: 5\n", 6)
	put(t, ws, "stats/deep_work/.tmp.txt", "mode: strict\n", 6)
	// Theme records: three share the newest ID.
	for _, n := range []string{string(id(1)) + "_start_a.md", string(id(7)) + "_start_b.md", string(id(7)) + "_end_b.md", string(id(7)) + "_start_c.md"} {
		put(t, ws, "artifacts/theme_histories/"+n, "x", 7)
	}
	// Inboxes.
	for _, n := range []string{"a.md", "draft.b.md", "processed.c.md", "interrupt.d.md", ".e.md", "f.txt"} {
		put(t, ws, "feedbackbox/"+n, "x", 3)
	}
	put(t, ws, "themebox/next.md", "x", 3)
	// Markers.
	put(t, ws, "stats/cooldown/web_search", "until: "+base.Add(time.Hour).Format(time.RFC3339)+"\n", 0)
	put(t, ws, "stats/cooldown/image", "duration: 15m\n", 0)
	put(t, ws, "stats/lock/deploy", "", 0)

	s := newScanner(t, ws)
	snap := scanOK(t, s)
	if len(snap.ActiveDeepWork) != 2 || snap.ActiveDeepWork[0].Decl.Mode != workspace.Flexible || snap.ActiveDeepWork[1].Decl.Mode != workspace.Strict {
		t.Fatalf("ActiveDeepWork = %+v, want flexible then legacy strict", snap.ActiveDeepWork)
	}
	if got, want := snap.ActiveDeepWork[1].Decl.Deadline, base.Add(31*time.Minute); !got.Equal(want) {
		t.Errorf("legacy deadline = %v, want ID time + 20m = %v", got, want)
	}
	if !snap.ActiveDeepWork[0].ModTime.Equal(base.Add(10 * time.Minute)) {
		t.Errorf("ActiveDeepWork[0].ModTime = %v, want the file's", snap.ActiveDeepWork[0].ModTime)
	}
	if len(snap.InvalidDeepWork) != 1 || snap.InvalidDeepWork[0].ID != id(12) || snap.InvalidDeepWork[0].Err == "" {
		t.Errorf("InvalidDeepWork = %+v, want %s with a reason", snap.InvalidDeepWork, id(12))
	}
	if c := snap.LastCompleted; c == nil || c.Decl.ID != id(5) || c.Decl.Activity != "b" {
		t.Errorf("LastCompleted = %+v, want %s", c, id(5))
	}
	if snap.ThemeRecordID != id(7) || len(snap.ThemeRecords) != 3 {
		t.Errorf("ThemeRecordID, ThemeRecords = %s, %v, want %s and 3 files", snap.ThemeRecordID, snap.ThemeRecords, id(7))
	}
	if got := names(snap.Feedback); got != "a.md interrupt.d.md!" {
		t.Errorf("Feedback = %q, want %q", got, "a.md interrupt.d.md!")
	}
	if got := names(snap.Themebox); got != "next.md" {
		t.Errorf("Themebox = %q, want next.md", got)
	}
	if len(snap.Restrictions) != 3 {
		t.Fatalf("Restrictions = %+v, want 3", snap.Restrictions)
	}
	for _, m := range snap.Restrictions {
		var want time.Time
		switch m.Tool {
		case "web_search":
			want = base.Add(time.Hour)
		case "image":
			want = base.Add(15 * time.Minute)
		}
		if !m.Until.Equal(want) || !m.Since.Equal(base) {
			t.Errorf("marker %s/%s: Since %v Until %v, want %v %v", m.Kind, m.Tool, m.Since, m.Until, base, want)
		}
	}

	// Changes are seen incrementally.
	if err := ws.Rename("stats/deep_work/"+string(id(10))+".txt", "stats/deep_work/"+string(id(10))+".completed.txt"); err != nil {
		t.Fatal(err)
	}
	put(t, ws, "feedbackbox/g.md", "x", 4)
	os.Remove(ws.Path("stats/lock/deploy"))
	put(t, ws, "artifacts/theme_histories/"+string(id(8))+"_end_c.md", "x", 8)
	snap = scanOK(t, s)
	if snap.FullScan {
		t.Errorf("FullScan = true (%s), want incremental", snap.Rescan)
	}
	if len(snap.ActiveDeepWork) != 1 || snap.LastCompleted == nil || snap.LastCompleted.Decl.ID != id(10) {
		t.Errorf("after completing: Active = %+v, LastCompleted = %+v", snap.ActiveDeepWork, snap.LastCompleted)
	}
	if got := names(snap.Feedback); got != "a.md g.md interrupt.d.md!" {
		t.Errorf("Feedback = %q, want g.md added", got)
	}
	if len(snap.Restrictions) != 2 || snap.ThemeRecordID != id(8) || len(snap.ThemeRecords) != 1 {
		t.Errorf("Restrictions = %d, ThemeRecordID = %s (%d), want 2, %s (1)", len(snap.Restrictions), snap.ThemeRecordID, len(snap.ThemeRecords), id(8))
	}
}

func TestFoldersCreatedLater(t *testing.T) {
	ws, err := workspace.New(t.TempDir(), time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	s := newScanner(t, ws)
	snap := scanOK(t, s)
	if snap.LastLog != nil || snap.LastCheckpoint != nil {
		t.Fatalf("empty workspace: %+v", snap)
	}
	if err := ws.EnsureSkeleton(); err != nil {
		t.Fatal(err)
	}
	scanOK(t, s) // takes in the new folders
	putLog(t, ws, themeA, "thinking", 1)
	put(t, ws, "stats/checkpoints/"+string(id(2))+".txt", "x", 2)
	put(t, ws, "feedbackbox/a.md", "x", 2)
	snap = scanOK(t, s)
	if snap.LastLog == nil || snap.LastCheckpoint == nil || len(snap.Feedback) != 1 {
		t.Errorf("after creating the layout: LastLog %v, LastCheckpoint %v, Feedback %v", snap.LastLog, snap.LastCheckpoint, snap.Feedback)
	}
	if s.fullScans != 1 {
		t.Errorf("full scans = %d, want 1", s.fullScans)
	}
}

func TestScanMissingWorkspace(t *testing.T) {
	ws, _ := workspace.New(filepath.Join(t.TempDir(), "nope"), time.UTC)
	if _, err := NewScanner(ws).Scan(); err == nil {
		t.Errorf("Scan() of a missing folder: no error")
	}
}

func names(items []InboxItem) string {
	var out []string
	for _, it := range items {
		n := it.Name
		if it.Interrupt {
			n += "!"
		}
		out = append(out, n)
	}
	return strings.Join(out, " ")
}

// TestInvalidIDNamesDoNotHideLogs: names shaped like IDs but naming no real
// time (month 13) sort above every real log; they must not take the slots of
// the greatest names a full scan looks at.
func TestInvalidIDNamesDoNotHideLogs(t *testing.T) {
	ws := newWS(t)
	newest := putLog(t, ws, themeA, "thinking", 2)
	putLog(t, ws, themeA, "introspection", 1)
	put(t, ws, "stats/checkpoints/"+string(id(3))+".txt", "12:00:00 real\n", 3)
	for i := 0; i < namesPerFolder+4; i++ {
		bad := fmt.Sprintf("999913%08d", 99999999-i)
		put(t, ws, "artifacts/"+themeA+"/histories/"+bad+".md", logText("creation"), 10)
		put(t, ws, "stats/checkpoints/"+bad+".txt", "12:00:00 bad\n", 10)
	}
	snap := scanOK(t, newScanner(t, ws))
	if proofPath(snap.LastLog) != newest || snap.LastIntrospection == nil {
		t.Errorf("LastLog = %s, LastIntrospection = %s, want %s and the introspection", proofPath(snap.LastLog), proofPath(snap.LastIntrospection), newest)
	}
	if c := snap.LastCheckpoint; c == nil || c.ID != id(3) {
		t.Errorf("LastCheckpoint = %+v, want ID %s", c, id(3))
	}
}

// TestLinkedThemesCountOnce: a theme folder reached through two links, or a
// subthemes link back to an ancestor, is one folder: its logs are held once
// (after_deep_work reads "the next log" from RecentLogs) and the walk ends.
func TestLinkedThemesCountOnce(t *testing.T) {
	ws := newWS(t)
	for m := 1; m <= 3; m++ {
		putLog(t, ws, themeA, "thinking", m)
	}
	if err := os.Symlink(themeA, ws.Path("artifacts/20250105000000_link")); err != nil {
		t.Skipf("no symlinks here: %v", err)
	}
	if err := os.MkdirAll(ws.Path("artifacts/"+themeA+"/subthemes"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("..", ws.Path("artifacts/"+themeA+"/subthemes/20250106000000_loop")); err != nil {
		t.Fatal(err)
	}
	s := newScanner(t, ws)
	check := func(when string, want int) {
		t.Helper()
		snap := scanOK(t, s)
		seen := map[workspace.ID]bool{}
		for _, p := range snap.RecentLogs {
			if seen[p.ID] || !strings.HasPrefix(p.Path, "artifacts/"+themeA+"/histories/") {
				t.Errorf("%s: RecentLogs holds %s twice or by a link path: %v", when, p.ID, snap.RecentLogs)
			}
			seen[p.ID] = true
		}
		if len(snap.RecentLogs) != want {
			t.Errorf("%s: len(RecentLogs) = %d, want %d", when, len(snap.RecentLogs), want)
		}
	}
	check("first scan", 3)
	for d := range s.dirs {
		if strings.Contains(d, "_link") || strings.Contains(d, "_loop") {
			t.Errorf("watched %s, a second path to a folder already watched", d)
		}
	}
	putLog(t, ws, themeA, "thinking", 4)
	check("after a new log", 4)
}

// TestCheckpointFallback: removing the held checkpoint falls back to the
// next newest from memory; stats/checkpoints (one file per heartbeat) is not
// listed again until every checkpoint held is gone.
func TestCheckpointFallback(t *testing.T) {
	ws := newWS(t)
	cp := func(min int) string {
		return put(t, ws, "stats/checkpoints/"+string(id(min))+".txt", fmt.Sprintf("12:00:00 at %d\n", min), min)
	}
	cp(1)
	cp(2)
	s := newScanner(t, ws)
	scanOK(t, s)
	c3, c4 := cp(3), cp(4)
	c5 := cp(5)
	steps := []struct {
		name   string
		remove string
		want   int // minute of the checkpoint held; 0 for none
		lists  int
	}{
		{"newest removed", c5, 4, 1},
		{"older one removed first", c3, 4, 1},
		{"next newest removed", c4, 2, 1},
		{"the rest removed", "stats/checkpoints/" + string(id(2)) + ".txt", 1, 1},
		{"last one removed", "stats/checkpoints/" + string(id(1)) + ".txt", 0, 2},
	}
	for _, st := range steps {
		if err := os.Remove(ws.Path(st.remove)); err != nil {
			t.Fatal(err)
		}
		snap := scanOK(t, s)
		switch c := snap.LastCheckpoint; {
		case st.want == 0 && c != nil, st.want != 0 && (c == nil || c.ID != id(st.want) || c.Message != fmt.Sprintf("at %d", st.want)):
			t.Errorf("%s: LastCheckpoint = %+v, want minute %d", st.name, c, st.want)
		}
		if s.cpLists != st.lists || snap.FullScan {
			t.Errorf("%s: checkpoints listed %d times (full scan %v), want %d", st.name, s.cpLists, snap.FullScan, st.lists)
		}
	}
}

func TestUnreadableCheckpointLogged(t *testing.T) {
	ws := newWS(t)
	put(t, ws, "stats/checkpoints/"+string(id(1))+".txt", "12:00:00 ok\n", 1)
	s := newScanner(t, ws)
	var logged []string
	s.Logf = func(f string, a ...any) { logged = append(logged, fmt.Sprintf(f, a...)) }
	scanOK(t, s)
	bad := "stats/checkpoints/" + string(id(2)) + ".txt"
	if err := os.Mkdir(ws.Path(bad), 0o755); err != nil { // reading a folder fails
		t.Fatal(err)
	}
	snap := scanOK(t, s)
	if c := snap.LastCheckpoint; c == nil || c.ID != id(1) {
		t.Errorf("LastCheckpoint = %+v, want %s kept", c, id(1))
	}
	if !strings.Contains(strings.Join(logged, "\n"), bad) {
		t.Errorf("log = %q, want a line naming %s", logged, bad)
	}
}

func TestInboxEntries(t *testing.T) {
	ws := newWS(t)
	put(t, ws, "themebox/a.md", "x", 1)
	put(t, ws, "elsewhere/b.md", "x", 1)
	if err := os.Symlink("../elsewhere/b.md", ws.Path("themebox/b.md")); err != nil {
		t.Skipf("no symlinks here: %v", err)
	}
	os.Symlink("../elsewhere", ws.Path("themebox/c.md"))
	os.Symlink("missing.md", ws.Path("themebox/d.md"))
	os.Mkdir(ws.Path("themebox/e.md"), 0o755)
	snap := scanOK(t, newScanner(t, ws))
	if got := names(snap.Themebox); got != "a.md b.md" {
		t.Errorf("Themebox = %q, want files and links to files only: %q", got, "a.md b.md")
	}
}
