package main

import (
	"strings"
	"testing"

	"github.com/ai-heart/ai-heart/internal/state"
)

// `watchdog resume` after a give-up says so: recovery had given up and
// waking comes back (it printed "was not paused" alone).
func TestResumeSaysAGiveUpEnds(t *testing.T) {
	dir := t.TempDir()
	if got := resumeSays(false, dir); !strings.Contains(got, "nothing to resume") {
		t.Errorf("no pause, no give-up: %q", got)
	}
	if err := state.Save(dir, state.State{Recovery: state.Recovery{GaveUp: true, Reason: "no activity log or checkpoint for 26s"}}); err != nil {
		t.Fatal(err)
	}
	for _, paused := range []bool{false, true} {
		got := resumeSays(paused, dir)
		if !strings.Contains(got, "recovery had given up (no activity log or checkpoint for 26s)") || !strings.Contains(got, "waking comes back") {
			t.Errorf("paused %v, after a give-up: %q", paused, got)
		}
	}
}
