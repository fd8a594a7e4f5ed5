package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/workspace"
)

// Eight servers on one workspace writing logs and checkpoints at once: no
// name is shared, no log or checkpoint line is lost or torn, and the
// latest-proof index names the newest log and the checkpoint file's last line.
func TestEightServersOneWorkspace(t *testing.T) {
	const servers, rounds = 8, 10
	ws := newWorkspace(t)
	var wg sync.WaitGroup
	errs := make(chan string, servers*rounds*2)
	for p := 0; p < servers; p++ {
		c, _ := connect(t, ws.Root, "2025-03-26")
		wg.Add(1)
		go func(p int) {
			defer wg.Done()
			for r := 0; r < rounds; r++ {
				tag := fmt.Sprintf("p%d-r%d", p, r)
				for _, tool := range []string{"create_activity_log", "checkpoint"} {
					args := map[string]any{"current_activity": tag}
					if tool == "create_activity_log" {
						args = map[string]any{"activity_type": "thinking", "activity_content": []string{tag}, "theme_start_id": themeID, "theme_directory_part": themePart}
					}
					res := call(t, c, tool, args)
					if res.IsError {
						errs <- tool + " " + tag + ": " + text(res)
					}
				}
			}
		}(p)
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}

	want := map[string]bool{}
	for p := 0; p < servers; p++ {
		for r := 0; r < rounds; r++ {
			want[fmt.Sprintf("p%d-r%d", p, r)] = true
		}
	}
	ents, err := os.ReadDir(ws.Path(themeHist))
	if err != nil {
		t.Fatal(err)
	}
	logTags := map[string]bool{}
	var newest time.Time
	for _, e := range ents {
		if !workspace.IsLogName(e.Name()) {
			t.Errorf("stray file %s", e.Name())
			continue
		}
		lg, err := ws.ReadLog(themeHist + "/" + e.Name())
		if err != nil || lg.Type != workspace.Thinking || len(lg.Content) != 1 {
			t.Errorf("log %s torn: %+v %v", e.Name(), lg, err)
			continue
		}
		if logTags[lg.Content[0]] {
			t.Errorf("tag %s written twice", lg.Content[0])
		}
		logTags[lg.Content[0]] = true
		if fi, _ := e.Info(); fi.ModTime().After(newest) {
			newest = fi.ModTime()
		}
	}
	if len(logTags) != len(want) {
		t.Errorf("%d logs, want %d", len(logTags), len(want))
	}
	cp, err := os.ReadFile(ws.Path("stats/checkpoints/" + curID + ".txt"))
	if err != nil {
		t.Fatal(err)
	}
	entries := workspace.ParseCheckpoints(cp)
	cpTags := map[string]bool{}
	for _, e := range entries {
		cpTags[e.Message] = true
	}
	if len(entries) != len(want) || len(cpTags) != len(want) {
		t.Errorf("checkpoint file has %d lines (%d distinct), want %d", len(entries), len(cpTags), len(want))
	}
	l, err := ws.ReadLatest()
	if err != nil {
		t.Fatal(err)
	}
	if l.Log == nil || !l.Log.ModTime.Equal(newest) {
		t.Errorf("index log = %+v, want the newest log (mtime %s)", l.Log, newest)
	}
	if l.Checkpoint == nil || l.Checkpoint.Message != entries[len(entries)-1].Message {
		t.Errorf("index checkpoint = %+v, want the file's last line %q", l.Checkpoint, entries[len(entries)-1].Message)
	}
}

var cpLine = regexp.MustCompile(`^\d\d:\d\d:\d\d k\d+$`)

// A server killed with SIGKILL in the middle of writes leaves only whole
// files: every log parses completely, every checkpoint line is whole, the
// index is valid JSON, and nothing but dot-named temp files is stray.
func TestKilledMidWrite(t *testing.T) {
	for round := 0; round < 3; round++ {
		t.Run(fmt.Sprintf("round%d", round), func(t *testing.T) {
			ws := newWorkspace(t)
			cmd := exec.Command(bin(), "--workspace", ws.Root)
			in, err := cmd.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			out, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			go func() {
				w := bufio.NewWriter(in)
				fmt.Fprintln(w, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"kill","version":"1"}}}`)
				for i := 1; i < 400; i++ {
					if i%2 == 0 {
						fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"checkpoint","arguments":{"current_activity":"k%d"}}}`+"\n", i, i)
					} else {
						fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"create_activity_log","arguments":{"activity_type":"creation","activity_content":["k%d"],"evaluation":"%s","theme_start_id":"%s","theme_directory_part":"%s"}}}`+"\n", i, i, strings.Repeat("e", 2000), themeID, themePart)
					}
				}
				w.Flush()
			}()
			// Kill after a number of replies that varies by round.
			sc := bufio.NewScanner(out)
			sc.Buffer(nil, 1<<20)
			for n := 0; n < 10+round*25 && sc.Scan(); n++ {
			}
			if err := cmd.Process.Kill(); err != nil {
				t.Fatal(err)
			}
			cmd.Wait()
			checkWhole(t, ws)
		})
	}
}

// checkWhole parses every file of the workspace that a tool may have written.
func checkWhole(t *testing.T, ws *workspace.Workspace) {
	t.Helper()
	var files []string
	filepath.WalkDir(ws.Root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasPrefix(d.Name(), ".") {
			return err
		}
		rel, _ := filepath.Rel(ws.Root, p)
		files = append(files, filepath.ToSlash(rel))
		return nil
	})
	sort.Strings(files)
	logs := 0
	for _, rel := range files {
		b, err := os.ReadFile(ws.Path(rel))
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case rel == workspace.CurrentIDFile:
		case rel == workspace.LatestFile:
			var l workspace.Latest
			if err := json.Unmarshal(b, &l); err != nil {
				t.Errorf("index torn: %v\n%s", err, b)
			}
		case strings.HasPrefix(rel, themeHist+"/"):
			lg := workspace.ParseActivityLog(b)
			if lg.Type != workspace.Creation || len(lg.Content) != 1 || lg.Evaluation != strings.Repeat("e", 2000) {
				t.Errorf("log %s torn (%d bytes)", rel, len(b))
			}
			logs++
		case rel == "stats/checkpoints/"+curID+".txt":
			for _, line := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
				if !cpLine.MatchString(line) {
					t.Errorf("checkpoint line torn: %q", line)
				}
			}
			if len(b) == 0 || b[len(b)-1] != '\n' {
				t.Errorf("checkpoint file does not end with a whole line")
			}
		default:
			t.Errorf("stray file %s", rel)
		}
	}
	t.Logf("%d whole logs after the kill", logs)
}
