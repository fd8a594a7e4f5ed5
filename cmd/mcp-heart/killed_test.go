package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/fsnotify/fsnotify"

	"github.com/ai-heart/ai-heart/internal/testutil"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// A server killed with SIGKILL while a write is under way leaves only whole
// files, and every call it answered is on disk. Each round arms the kill
// after a random number of replies and fires it at the next writer temp
// file created in the workspace, so it lands between a temp file's creation
// and its link or rename; a temp file left behind proves it did, and at
// least half the rounds must prove it (on a loaded two-core machine 39 of
// 40 did). After the kill every log parses completely, every
// checkpoint line is whole, the index is valid JSON, nothing but writer
// temp files is stray, and each log and checkpoint answered is there.
func TestKilledMidWrite(t *testing.T) {
	const rounds = 8
	midWrite := 0
	for round := range rounds {
		t.Run(fmt.Sprintf("round%d", round), func(t *testing.T) {
			if killMidWrite(t) > 0 {
				midWrite++
			}
		})
	}
	t.Logf("%d of %d kills left a writer's temp file behind", midWrite, rounds)
	if midWrite < rounds/2 {
		t.Errorf("only %d kills of %d left a writer's temp file, proof that they landed mid-write", midWrite, rounds)
	}
}

// answered is what the server acknowledged: the tags of the logs and the
// checkpoints whose calls it answered without error.
type answered struct{ logs, checkpoints map[string]bool }

// killMidWrite runs one round and returns how many writer temp files the
// kill left behind.
func killMidWrite(t *testing.T) int {
	ws := newWorkspace(t)
	watcher, err := fsnotify.NewWatcher()
	if err != nil {
		t.Fatal(err)
	}
	defer watcher.Close()
	for _, d := range []string{themeHist, "stats", "stats/checkpoints"} {
		if err := os.MkdirAll(ws.Path(d), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := watcher.Add(ws.Path(d)); err != nil {
			t.Fatal(err)
		}
	}
	inR, inW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer inW.Close()
	defer outR.Close()
	cmd := exec.Command(bin(), "--workspace", ws.Root)
	cmd.Stdin, cmd.Stdout = inR, outW
	p := testutil.Start(t, cmd)
	inR.Close()
	outW.Close()
	go sendCalls(inW)

	// The kill is armed once the server has answered armAt calls, and fires
	// at the first writer temp file created after that.
	armAt := 5 + rand.IntN(60)
	var armed atomic.Bool
	killed := make(chan string, 1)
	go func() {
		for {
			select {
			case ev, ok := <-watcher.Events:
				if !ok {
					return
				}
				if armed.Load() && ev.Has(fsnotify.Create) && workspace.IsWriterTemp(filepath.Base(ev.Name)) {
					_ = syscall.Kill(cmd.Process.Pid, syscall.SIGKILL)
					killed <- ev.Name
					return
				}
			case <-watcher.Errors:
			case <-p.Done():
				return
			}
		}
	}()
	got := answered{logs: map[string]bool{}, checkpoints: map[string]bool{}}
	replies := readReplies(t, outR, func(n int) {
		if n == armAt {
			armed.Store(true)
		}
	}, got)
	_ = p.Wait()
	select {
	case name := <-killed:
		t.Logf("killed at %s after %d replies (armed at %d)", filepath.Base(name), replies, armAt)
	default:
		t.Fatalf("the server was never killed: it answered %d calls and exited on its own", replies)
	}
	return checkWhole(t, ws, got)
}

// sendCalls writes an initialize and 399 calls that alternate between a
// log with a 2000-byte evaluation and a checkpoint, tagged k1, k2, ...
func sendCalls(w *os.File) {
	bw := bufio.NewWriter(w)
	fmt.Fprintln(bw, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"kill","version":"1"}}}`)
	for i := 1; i < 400; i++ {
		if i%2 == 0 {
			fmt.Fprintf(bw, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"checkpoint","arguments":{"current_activity":"k%d"}}}`+"\n", i, i)
		} else {
			fmt.Fprintf(bw, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"create_activity_log","arguments":{"activity_type":"creation","activity_content":["k%d"],"evaluation":"%s","theme_start_id":"%s","theme_directory_part":"%s"}}}`+"\n", i, i, strings.Repeat("e", 2000), themeID, themePart)
		}
	}
	_ = bw.Flush() // fails once the server is killed
}

// readReplies reads the server's replies until its stdout closes, calls
// seen with the count after each, and notes each call answered without
// error in got. It returns the number of replies.
func readReplies(t *testing.T, r *os.File, seen func(int), got answered) int {
	t.Helper()
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<20)
	n := 0
	for sc.Scan() {
		var rep struct {
			ID     int `json:"id"`
			Result *struct {
				IsError bool `json:"isError"`
			} `json:"result"`
		}
		if err := json.Unmarshal(sc.Bytes(), &rep); err != nil {
			t.Errorf("reply is not JSON: %v: %q", err, sc.Bytes())
			continue
		}
		n++
		seen(n)
		if rep.ID == 0 || rep.Result == nil || rep.Result.IsError {
			continue
		}
		tag := fmt.Sprintf("k%d", rep.ID)
		if rep.ID%2 == 0 {
			got.checkpoints[tag] = true
		} else {
			got.logs[tag] = true
		}
	}
	return n
}

// lockFiles are the empty files the writers flock; they are meant to stay.
var lockFiles = map[string]bool{"stats/.checkpoint.lock": true, "stats/.latest_proof.lock": true}

var cpLine = regexp.MustCompile(`^\d\d:\d\d:\d\d (k\d+)$`)

// checkWhole parses every file of the workspace that a tool may have
// written, checks that every call in want is on disk, and returns how many
// writer temp files it found.
func checkWhole(t *testing.T, ws *workspace.Workspace, want answered) int {
	t.Helper()
	temps := 0
	logs, checkpoints := map[string]bool{}, map[string]bool{}
	err := filepath.WalkDir(ws.Root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(ws.Root, p)
		rel = filepath.ToSlash(rel)
		if workspace.IsWriterTemp(d.Name()) {
			temps++
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		switch {
		case lockFiles[rel]:
			if len(b) != 0 {
				t.Errorf("lock file %s holds %d bytes", rel, len(b))
			}
		case rel == workspace.CurrentIDFile:
			if strings.TrimSpace(string(b)) != curID {
				t.Errorf("%s = %q, want %s", rel, b, curID)
			}
		case rel == workspace.LatestFile:
			var l workspace.Latest
			if err := json.Unmarshal(b, &l); err != nil {
				t.Errorf("index torn: %v\n%s", err, b)
			}
		case strings.HasPrefix(rel, themeHist+"/"):
			lg := workspace.ParseActivityLog(b)
			if lg.Type != workspace.Creation || len(lg.Content) != 1 || lg.Evaluation != strings.Repeat("e", 2000) {
				t.Errorf("log %s torn (%d bytes)", rel, len(b))
				return nil
			}
			logs[lg.Content[0]] = true
		case rel == "stats/checkpoints/"+curID+".txt":
			if len(b) == 0 || b[len(b)-1] != '\n' {
				t.Errorf("checkpoint file does not end with a whole line (%d bytes)", len(b))
			}
			for _, line := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
				m := cpLine.FindStringSubmatch(line)
				if m == nil {
					t.Errorf("checkpoint line torn: %q", line)
					continue
				}
				checkpoints[m[1]] = true
			}
		default:
			t.Errorf("stray file %s (%d bytes)", rel, len(b))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for tag := range want.logs {
		if !logs[tag] {
			t.Errorf("log %s was answered but is not on disk", tag)
		}
	}
	for tag := range want.checkpoints {
		if !checkpoints[tag] {
			t.Errorf("checkpoint %s was answered but is not on disk", tag)
		}
	}
	t.Logf("%d logs and %d checkpoints answered, %d and %d on disk, %d writer temp files", len(want.logs), len(want.checkpoints), len(logs), len(checkpoints), temps)
	return temps
}
