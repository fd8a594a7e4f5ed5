package workspace

import (
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"
)

var base = time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC)

// put writes a workspace file and sets its modification time.
func put(t testing.TB, w *Workspace, rel, data string, mtime time.Time) {
	t.Helper()
	mkdir(t, w.Path(rel[:strings.LastIndex(rel, "/")]))
	if err := os.WriteFile(w.Path(rel), []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(w.Path(rel), mtime, mtime); err != nil {
		t.Fatal(err)
	}
}

func logText(typ ActivityType) string {
	return string(ActivityLog{Type: typ, Content: []string{"x"}}.Format("20250101120000", ""))
}

func TestHistoryDirs(t *testing.T) {
	w := newWS(t)
	for _, d := range []string{
		"artifacts/20250101000000_a/histories",
		"artifacts/20250101000000_a/subthemes/20250102000000_s/histories",
		"artifacts/20250101000000_a/subthemes/20250102000000_s/subthemes/20250103000000_ss/histories",
		"artifacts/20250101000000_a/subthemes/20250102000000_nohist/subthemes/20250104000000_deep/histories",
		"artifacts/20250105000000_b/histories",
		"artifacts/20250106000000_empty",
		"artifacts/theme_histories",
		"artifacts/notatheme/histories",
		"artifacts/.20250107000000_hidden/histories",
		"artifacts/20250101000000_a/other/20250108000000_x/histories",
		"linked/histories",
	} {
		mkdir(t, w.Path(d))
	}
	put(t, w, "artifacts/20250109000000_file", "not a folder", base)
	// A link is followed when it stays inside and is relative: the
	// workspace's os.Root follows no absolute link.
	symlink(t, "../linked", w.Path("artifacts/20250110000000_linked"))
	got, err := w.HistoryDirs()
	want := []string{
		"artifacts/20250101000000_a/histories",
		"artifacts/20250101000000_a/subthemes/20250102000000_nohist/subthemes/20250104000000_deep/histories",
		"artifacts/20250101000000_a/subthemes/20250102000000_s/histories",
		"artifacts/20250101000000_a/subthemes/20250102000000_s/subthemes/20250103000000_ss/histories",
		"artifacts/20250105000000_b/histories",
		"artifacts/20250110000000_linked/histories",
	}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("HistoryDirs() = %q, %v, want %q", got, err, want)
	}

	// Linked theme folders that loop are walked once, not 2^40 times.
	loop := "artifacts/20250101000000_a/subthemes/"
	symlink(t, "../../20250101000000_a", w.Path(loop+"20250111000000_x"))
	symlink(t, "../../20250101000000_a", w.Path(loop+"20250112000000_y"))
	done := make(chan struct{})
	go func() {
		defer close(done)
		got, err = w.HistoryDirs()
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatalf("HistoryDirs() with looping symlinks did not return in 10s")
	}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("HistoryDirs() with looping symlinks = %q, %v, want %q", got, err, want)
	}

	empty := newWS(t)
	if got, err := empty.HistoryDirs(); err != nil || len(got) != 0 {
		t.Fatalf("HistoryDirs() without artifacts/ = %q, %v, want none", got, err)
	}
}

func TestIsLogAndCheckpointName(t *testing.T) {
	tests := []struct {
		name      string
		log, ckpt bool
	}{
		{"20250101120000.md", true, false},
		{"20250101120000_01.md", true, false},
		{"20250101120000.txt", false, true},
		{".20250101120000.md", false, false},
		{".20250101120000.txt", false, false},
		{".claim-123", false, false},
		{"20250101120000.md.tmp", false, false},
		{"notes.md", false, false},
		{"20250230120000.md", false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := IsLogName(tt.name); got != tt.log {
				t.Fatalf("IsLogName(%q) = %v, want %v", tt.name, got, tt.log)
			}
			if got := IsCheckpointName(tt.name); got != tt.ckpt {
				t.Fatalf("IsCheckpointName(%q) = %v, want %v", tt.name, got, tt.ckpt)
			}
		})
	}
}

func TestNewestByName(t *testing.T) {
	w := newWS(t)
	const dir = "artifacts/20250101000000_a/histories"
	// Names in time order; mtimes deliberately not in name order.
	files := []struct {
		name string
		age  time.Duration
	}{
		{"20250101120000.md", 50 * time.Minute},
		{"20250101120100.md", 40 * time.Minute},
		{"20250101120100_01.md", 10 * time.Minute},
		{"20250101120200.md", 20 * time.Minute},
		{"20250101120300.md", 30 * time.Minute},
		{"notes.md", 0},
		{".20250101130000.md", 0},
	}
	for _, f := range files {
		put(t, w, dir+"/"+f.name, "x", base.Add(-f.age))
	}
	tests := []struct {
		k    int
		want []string // newest mtime first
	}{
		{0, nil},
		{1, []string{"20250101120300.md"}},
		{2, []string{"20250101120200.md", "20250101120300.md"}},
		{3, []string{"20250101120100_01.md", "20250101120200.md", "20250101120300.md"}},
		{4, []string{"20250101120100_01.md", "20250101120200.md", "20250101120300.md", "20250101120100.md"}},
		{5, []string{"20250101120100_01.md", "20250101120200.md", "20250101120300.md", "20250101120100.md", "20250101120000.md"}},
		{100, []string{"20250101120100_01.md", "20250101120200.md", "20250101120300.md", "20250101120100.md", "20250101120000.md"}},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("k%d", tt.k), func(t *testing.T) {
			got, err := w.NewestByName(dir, tt.k, IsLogName)
			if err != nil {
				t.Fatalf("NewestByName(%d) = %v", tt.k, err)
			}
			var names []string
			for _, f := range got {
				names = append(names, f.Rel[len(dir)+1:])
				if id, _ := IDPrefix(f.Rel[len(dir)+1:]); f.ID != id {
					t.Fatalf("NewestByName(%d): %s has ID %q, want %q", tt.k, f.Rel, f.ID, id)
				}
			}
			if !reflect.DeepEqual(names, tt.want) {
				t.Fatalf("NewestByName(%d) = %q, want %q", tt.k, names, tt.want)
			}
		})
	}
	if got, err := w.NewestByName("artifacts/missing", 3, IsLogName); err != nil || len(got) != 0 {
		t.Fatalf("NewestByName(missing dir) = %v, %v, want nothing", got, err)
	}
}

func TestScanLatest(t *testing.T) {
	w := newWS(t)
	a := "artifacts/20250101000000_a/histories/"
	s := "artifacts/20250101000000_a/subthemes/20250102000000_s/histories/"
	put(t, w, a+"20250101120000.md", logText(Introspection), base)
	put(t, w, a+"20250101121000.md", logText(Thinking), base.Add(10*time.Minute))
	put(t, w, s+"20250101122000.md", logText(Introspection), base.Add(20*time.Minute))
	put(t, w, s+"20250101123000.md", logText(Creation), base.Add(30*time.Minute))
	put(t, w, a+"notes.md", logText(Introspection), base.Add(time.Hour))
	put(t, w, "stats/checkpoints/20250101121500.txt", "12:15:00 first\n", base.Add(15*time.Minute))
	put(t, w, "stats/checkpoints/20250101122500.txt", "12:25:00 a\n12:26:00 b\n", base.Add(26*time.Minute))
	put(t, w, "stats/checkpoints/.20250101130000.txt", "temp", base.Add(time.Hour))

	l, err := w.ScanLatest()
	if err != nil {
		t.Fatalf("ScanLatest() = %v", err)
	}
	checkProof(t, "Log", l.Log, s+"20250101123000.md", Creation, "")
	checkProof(t, "Introspection", l.Introspection, s+"20250101122000.md", Introspection, "")
	checkProof(t, "Checkpoint", l.Checkpoint, "stats/checkpoints/20250101122500.txt", "", "b")
	if got := l.NewestProof(); got == nil || got.Path != s+"20250101123000.md" {
		t.Fatalf("NewestProof() = %+v, want the creation log", got)
	}

	empty := newWS(t)
	if l, err := empty.ScanLatest(); err != nil || l.Log != nil || l.Introspection != nil || l.Checkpoint != nil {
		t.Fatalf("ScanLatest() on an empty workspace = %+v, %v, want nothing", l, err)
	}
}

// TestScanLatestUnreadableNewest: when the newest log cannot be read, the
// next one is the latest log; the index must not be left without a log.
func TestScanLatestUnreadableNewest(t *testing.T) {
	w := newWS(t)
	a := "artifacts/20250101000000_a/histories/"
	put(t, w, a+"20250101120000.md", logText(Thinking), base)
	mkdir(t, w.Path(a+"20250101121000.md")) // a folder with a log's name
	l, err := w.ScanLatest()
	if err != nil {
		t.Fatalf("ScanLatest() = %v", err)
	}
	checkProof(t, "Log", l.Log, a+"20250101120000.md", Thinking, "")
}

func checkProof(t testing.TB, what string, p *Proof, path string, typ ActivityType, msg string) {
	t.Helper()
	if p == nil {
		t.Fatalf("%s = nil, want %s", what, path)
	}
	if p.Path != path || p.Type != typ || p.Message != msg {
		t.Fatalf("%s = %+v, want path %s type %q message %q", what, *p, path, typ, msg)
	}
	id, _ := IDPrefix(path[strings.LastIndex(path, "/")+1:])
	if p.ID != id {
		t.Fatalf("%s.ID = %q, want %q", what, p.ID, id)
	}
}

// TestScanLatestByFolderTime: folders are listed newest first by their own
// time, and the introspection is still found in an older folder when the
// newer ones hold none.
func TestScanLatestByFolderTime(t *testing.T) {
	w := newWS(t)
	x := "artifacts/20250101000000_x/histories/"
	y := "artifacts/20250101000000_y/histories/"
	z := "artifacts/20250101000000_z/histories/"
	put(t, w, z+"20250101100000.md", logText(Introspection), base)
	put(t, w, y+"20250101110000.md", logText(Introspection), base.Add(time.Hour))
	put(t, w, y+"20250101111000.md", logText(Thinking), base.Add(70*time.Minute))
	put(t, w, x+"20250101120000.md", logText(Thinking), base.Add(2*time.Hour))
	for dir, at := range map[string]time.Time{z: base, y: base.Add(70 * time.Minute), x: base.Add(2 * time.Hour)} {
		if err := os.Chtimes(w.Path(dir), at, at); err != nil {
			t.Fatal(err)
		}
	}
	l, err := w.ScanLatest()
	if err != nil {
		t.Fatalf("ScanLatest() = %v", err)
	}
	checkProof(t, "Log", l.Log, x+"20250101120000.md", Thinking, "")
	checkProof(t, "Introspection", l.Introspection, y+"20250101110000.md", Introspection, "")
}
