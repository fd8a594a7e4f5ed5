package workspace

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"testing"
	"time"
)

func TestLatestNote(t *testing.T) {
	older := Proof{Path: "a.md", ModTime: base, Type: Introspection}
	newer := Proof{Path: "b.md", ModTime: base.Add(time.Second), Type: Thinking}
	same := Proof{Path: "c.md", ModTime: base.Add(time.Second), Type: Creation}
	var l Latest
	l.NoteLog(newer)
	l.NoteLog(older)
	if l.Log.Path != "b.md" || l.Introspection == nil || l.Introspection.Path != "a.md" {
		t.Fatalf("after NoteLog(newer), NoteLog(older): %+v, want log b.md, introspection a.md", l)
	}
	l.NoteLog(same) // equal time: at least as new wins
	if l.Log.Path != "c.md" {
		t.Fatalf("NoteLog(equal time) kept %s, want c.md", l.Log.Path)
	}
	moved := Proof{Path: "c.md", ModTime: base, Type: Creation} // same file, older mtime (restored)
	l.NoteLog(moved)
	if !l.Log.ModTime.Equal(base) {
		t.Fatalf("NoteLog(same path, older mtime) = %v, want taken over", l.Log.ModTime)
	}
	l.NoteCheckpoint(Proof{Path: "k1", ModTime: base.Add(time.Hour)})
	l.NoteCheckpoint(Proof{Path: "k0", ModTime: base})
	if l.Checkpoint.Path != "k1" {
		t.Fatalf("NoteCheckpoint kept %s, want k1", l.Checkpoint.Path)
	}
	if p := l.NewestProof(); p.Path != "k1" {
		t.Fatalf("NewestProof() = %s, want k1", p.Path)
	}
	if p := (Latest{}).NewestProof(); p != nil {
		t.Fatalf("NewestProof() of nothing = %+v, want nil", p)
	}
	if p := (Latest{Checkpoint: &Proof{Path: "k"}}).NewestProof(); p == nil || p.Path != "k" {
		t.Fatalf("NewestProof() with only a checkpoint = %+v, want k", p)
	}
	// Mutating the noted value must not change the index.
	p := Proof{Path: "z", ModTime: base.Add(2 * time.Hour)}
	l.NoteCheckpoint(p)
	p.Path = "changed"
	if l.Checkpoint.Path != "z" {
		t.Fatalf("index aliases the noted proof: %s", l.Checkpoint.Path)
	}
}

func TestLoadLatestVerifies(t *testing.T) {
	w := newWS(t)
	a := "artifacts/20250101000000_a/histories/"
	put(t, w, a+"20250101120000.md", logText(Introspection), base)
	put(t, w, a+"20250101121000.md", logText(Thinking), base.Add(10*time.Minute))
	put(t, w, "stats/checkpoints/20250101121500.txt", "12:15:00 a\n", base.Add(15*time.Minute))

	// No index: scanned.
	l, err := w.LoadLatest()
	if err != nil {
		t.Fatalf("LoadLatest() without index = %v", err)
	}
	checkProof(t, "Log", l.Log, a+"20250101121000.md", Thinking, "")
	checkProof(t, "Checkpoint", l.Checkpoint, "stats/checkpoints/20250101121500.txt", "", "a")
	if err := w.UpdateLatest(func(*Latest) {}); err != nil {
		t.Fatalf("UpdateLatest() = %v", err)
	}
	if _, err := w.ReadLatest(); err != nil {
		t.Fatalf("ReadLatest() after UpdateLatest = %v, want the index written", err)
	}

	// A changed mtime is taken over.
	touched := base.Add(20 * time.Minute)
	if err := os.Chtimes(w.Path(a+"20250101121000.md"), touched, touched); err != nil {
		t.Fatal(err)
	}
	l, err = w.LoadLatest()
	if err != nil || l.Log == nil || !l.Log.ModTime.Equal(touched) {
		t.Fatalf("LoadLatest() after touching the log = %+v, %v, want mod time %v", l.Log, err, touched)
	}

	// An entry whose file vanished is dropped (the checkpoint), or rescanned (the log).
	if err := os.Rename(w.Path("stats/checkpoints/20250101121500.txt"), w.Path("stats/checkpoints/.gone")); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(w.Path(a+"20250101121000.md"), w.Path(a+".gone.md")); err != nil {
		t.Fatal(err)
	}
	l, err = w.LoadLatest()
	if err != nil {
		t.Fatalf("LoadLatest() after files vanished = %v", err)
	}
	if l.Checkpoint != nil {
		t.Fatalf("Checkpoint = %+v, want dropped", l.Checkpoint)
	}
	checkProof(t, "Log", l.Log, a+"20250101120000.md", Introspection, "")
	checkProof(t, "Introspection", l.Introspection, a+"20250101120000.md", Introspection, "")

	// A corrupt index is rebuilt, never fatal.
	if err := os.WriteFile(w.Path(LatestFile), []byte("{not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	l, err = w.LoadLatest()
	if err != nil || l.Log == nil {
		t.Fatalf("LoadLatest() with a corrupt index = %+v, %v, want a rescan", l, err)
	}
}

// noteLogs writes n logs, numbered first, first+stride, ..., named and timed
// by their number, and notes each in the index.
func noteLogs(w *Workspace, first, stride, n int) error {
	for k := range n {
		i := first + k*stride
		id := NewID(base.Add(time.Duration(i) * time.Second))
		rel := "artifacts/20250101000000_a/histories/" + string(id) + ".md"
		// The log appears with its time already set, as a real one does: a
		// writer's first update scans the history, and a file seen before
		// its Chtimes would carry today's time and outrank every later log.
		tmp := w.Path("artifacts/" + string(id) + ".tmp")
		if err := os.WriteFile(tmp, []byte(logText(Thinking)), 0o644); err != nil {
			return err
		}
		mt := base.Add(time.Duration(i) * time.Second)
		if err := os.Chtimes(tmp, mt, mt); err != nil {
			return err
		}
		if err := os.Rename(tmp, w.Path(rel)); err != nil {
			return err
		}
		p := Proof{Path: rel, ID: id, ModTime: mt, Type: Thinking}
		if err := w.UpdateLatest(func(l *Latest) { l.NoteLog(p) }); err != nil {
			return err
		}
	}
	return nil
}

func checkNewest(t *testing.T, w *Workspace, total int) {
	t.Helper()
	l, err := w.ReadLatest()
	if err != nil {
		t.Fatalf("ReadLatest() = %v", err)
	}
	want := NewID(base.Add(time.Duration(total-1) * time.Second))
	if l.Log == nil || l.Log.ID != want {
		t.Fatalf("index log = %+v, want ID %s: an update was lost", l.Log, want)
	}
}

func TestUpdateLatestGoroutines(t *testing.T) {
	const writers, each = 8, 10
	w := newWS(t)
	mkdir(t, w.Path("artifacts/20250101000000_a/histories"))
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	for g := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Interleaved: writer g notes g, g+8, g+16, ...
			if err := noteLogs(w, g, writers, each); err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	checkNewest(t, w, writers*each)
}

// The multi-process test re-runs this test binary as children; the child
// part runs when this variable names the workspace.
const childEnv = "WORKSPACE_TEST_LATEST_CHILD"

func TestUpdateLatestProcesses(t *testing.T) {
	if root := os.Getenv(childEnv); root != "" {
		first, _ := strconv.Atoi(os.Getenv(childEnv + "_FIRST"))
		stride, _ := strconv.Atoi(os.Getenv(childEnv + "_STRIDE"))
		n, _ := strconv.Atoi(os.Getenv(childEnv + "_N"))
		w, err := New(root, time.UTC)
		if err != nil {
			t.Fatal(err)
		}
		if err := noteLogs(w, first, stride, n); err != nil {
			t.Fatal(err)
		}
		return
	}
	const procs, each = 4, 40
	w := newWS(t)
	mkdir(t, w.Path("artifacts/20250101000000_a/histories"))
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmds := make([]*exec.Cmd, procs)
	for p := range procs {
		cmd := exec.Command(exe, "-test.run=^TestUpdateLatestProcesses$", "-test.count=1")
		cmd.Env = append(os.Environ(), childEnv+"="+w.Root,
			fmt.Sprintf("%s_FIRST=%d", childEnv, p), fmt.Sprintf("%s_STRIDE=%d", childEnv, procs),
			fmt.Sprintf("%s_N=%d", childEnv, each))
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds[p] = cmd
	}
	// Child p notes p, p+4, p+8, ...: whoever notes the newest, the others
	// are still writing older ones around then.
	for p, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Fatalf("child %d: %v", p, err)
		}
	}
	checkNewest(t, w, procs*each)
}
