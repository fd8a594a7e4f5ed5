package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/state"
	"github.com/ai-heart/ai-heart/internal/testutil"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

var update = flag.Bool("update", false, "rewrite testdata/golden/*.golden with this run's output")

// goldenNow is the time the golden workspace is judged at: six minutes
// after its last checkpoint, ten after its last log.
var goldenNow = time.Date(2026, 11, 25, 14, 10, 0, 0, time.UTC)

// What a person reads from status, status --brief, check and init, byte
// for byte, on the fixed workspace of testdata/golden at goldenNow. The
// outputs are testdata/golden/*.golden; after a deliberate change to what a
// subcommand prints, rewrite them with
//
//	go test ./cmd/watchdog -run TestGoldenStdout -update
//
// and read the diff. Paths that differ by machine read $WORKSPACE, $DIR and
// $HOME.
func TestGoldenStdout(t *testing.T) {
	defer func(now func() time.Time, loc *time.Location) { timeNow, time.Local = now, loc }(timeNow, time.Local)
	timeNow = func() time.Time { return goldenNow }
	time.Local = time.UTC // status prints some times in the local zone

	stateDir, cfg := goldenWorkspace(t)
	lock, err := state.Lock(stateDir) // as the running watchdog holds it
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Unlock()
	for _, tc := range []struct {
		name string
		args []string
		code int
	}{
		{"status", []string{"status", "-c", cfg}, 0},
		{"status-brief", []string{"status", "--brief", "-c", cfg}, 0},
		{"check", []string{"check", "-c", cfg}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := runGolden(t, tc.args, tc.code)
			// The lock's holder is this process: the state names it, and
			// the golden file the state's own pid.
			pid := "pid " + strconv.Itoa(os.Getpid()) + ","
			golden(t, tc.name, strings.NewReplacer(filepath.Join(filepath.Dir(cfg), "ai-works"), "$WORKSPACE", stateDir, "$STATE", pid, "pid 4242,").Replace(out))
		})
	}

	t.Run("init", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "ai-works")
		bin := t.TempDir()
		for _, name := range []string{"mcp-heart", "heart-hook"} {
			if err := os.WriteFile(filepath.Join(bin, name), []byte("#!/bin/false\n"), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		out := runGolden(t, []string{"init", "--mcp-heart", filepath.Join(bin, "mcp-heart"), "--heart-hook", filepath.Join(bin, "heart-hook"), dir}, 0)
		out = strings.NewReplacer(dir, "$DIR", bin, "$BIN", os.Getenv("HOME"), "$HOME").Replace(out)
		golden(t, "init", out)
	})
}

// goldenWorkspace copies testdata/golden/ai-works into a temp folder, gives
// each file a fixed mtime (a file named by a heartbeat ID: that ID's time
// plus a minute; a checkpoint file: its last line's time), writes the state
// file of testdata/golden/state.json and a config naming the workspace, and
// returns the workspace and the config's path.
func goldenWorkspace(t *testing.T) (stateDir, cfgPath string) {
	t.Helper()
	dir := t.TempDir()
	root := filepath.Join(dir, "ai-works")
	files := testutil.CopyTree(t, filepath.Join("testdata", "golden", "ai-works"), root)
	ws, err := workspace.New(root, time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	if err := ws.EnsureSkeleton(); err != nil {
		t.Fatal(err)
	}
	for _, rel := range files {
		mt := goldenNow.Add(-5 * time.Hour)
		if id, ok := workspace.IDPrefix(filepath.Base(rel)); ok {
			it, _ := id.Time(time.UTC)
			mt = it.Add(time.Minute)
		}
		if filepath.Dir(rel) == filepath.FromSlash(workspace.CheckpointsDir) {
			mt = time.Date(2026, 11, 25, 14, 4, 0, 0, time.UTC)
		}
		if err := os.Chtimes(filepath.Join(root, rel), mt, mt); err != nil {
			t.Fatal(err)
		}
	}
	b, err := os.ReadFile(filepath.Join("testdata", "golden", "state.json"))
	if err != nil {
		t.Fatal(err)
	}
	var st state.State
	if err := json.Unmarshal(b, &st); err != nil {
		t.Fatal(err)
	}
	st.PID = os.Getpid() // the watchdog that holds the lock, as the test will
	cfg := filepath.Join(dir, "watchdog.yaml")
	yaml := "name: tides\nworkspace: ./ai-works\ntimezone: UTC\nagent:\n  delivery: tmux\n"
	if err := os.WriteFile(cfg, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := config.Load(cfg)
	if err != nil {
		t.Fatal(err)
	}
	stateDir = c.AgentConfigs()[0].StateDir()
	if err := state.Save(stateDir, st); err != nil {
		t.Fatal(err)
	}
	return stateDir, cfg
}

// runGolden runs the watchdog command line args in this process and
// returns its stdout; it fails on another exit code than code, or on
// anything on stderr.
func runGolden(t *testing.T, args []string, code int) string {
	t.Helper()
	var out, errb bytes.Buffer
	if got := run(context.Background(), args, &out, &errb); got != code {
		t.Errorf("watchdog %s = %d, want %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), got, code, out.String(), errb.String())
	}
	if errb.Len() > 0 {
		t.Errorf("watchdog %s wrote to stderr:\n%s", strings.Join(args, " "), errb.String())
	}
	return out.String()
}

// golden compares got with testdata/golden/name.golden, or rewrites that
// file with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name+".golden")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (create it with -update)", err)
	}
	if got != string(want) {
		t.Errorf("watchdog %s printed, against %s:\n%s", name, path, lineDiff(string(want), got))
	}
}

// lineDiff shows the lines of want and got that differ, by number.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	for i := 0; i < max(len(w), len(g)); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			b.WriteString("line " + strconv.Itoa(i+1) + "\n  want " + strconv.Quote(wl) + "\n  got  " + strconv.Quote(gl) + "\n")
		}
	}
	return b.String()
}
