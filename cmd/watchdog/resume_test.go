package main

import (
	"strings"
	"testing"
	"time"

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

// `watchdog resume` while a rate limit holds or spreads the wakeups says it
// ends that (it answered "nothing to resume" and changed nothing).
func TestResumeSaysARateLimitEnds(t *testing.T) {
	dir := t.TempDir()
	until := time.Now().Add(3 * 24 * time.Hour)
	st := state.State{}
	st.Chambers.Schedule.HeldUntil, st.Chambers.Schedule.HeldFor, st.Chambers.Schedule.HeldLimit = &until, "7-day limit, 100 % used", true
	if err := state.Save(dir, st); err != nil {
		t.Fatal(err)
	}
	if got := resumeSays(false, dir); strings.Contains(got, "nothing to resume") || !strings.Contains(got, "rate limit's hold (7-day limit, 100 % used)") || !strings.Contains(got, "within one pulse") {
		t.Errorf("a rate limit's hold: %q", got)
	}
	st.Chambers.Schedule.HeldUntil, st.Chambers.Schedule.HeldLimit = nil, false
	st.Chambers.Schedule.Spread = &state.Spread{Window: "seven_day", Why: "7-day limit, 99 % used", Until: until}
	if err := state.Save(dir, st); err != nil {
		t.Fatal(err)
	}
	if got := resumeSays(true, dir); !strings.HasPrefix(got, "resumed") || !strings.Contains(got, "spreading of the schedule (7-day limit, 99 % used)") {
		t.Errorf("paused, and a spread: %q", got)
	}
}
