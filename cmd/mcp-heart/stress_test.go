package main

import (
	"fmt"
	"os"
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
