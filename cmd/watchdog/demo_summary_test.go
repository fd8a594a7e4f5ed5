package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/ai-heart/ai-heart/internal/lang"
	"github.com/ai-heart/ai-heart/internal/state"
)

// The demo's summary reads as a sum: the wakeups' fates add up to the
// wakeups, the ghosts are said to be among the delivered, and what was
// never admitted (coalesced) comes apart.
func TestSummaryAddsUp(t *testing.T) {
	for _, tc := range []struct {
		c        state.Counters
		en, ja   string
		wantSumN int64
	}{
		{state.Counters{Wakeups: 28, Delivered: 27, Ghosts: 3, TakenOver: 1, Coalesced: 2, Alerts: 5, Pulses: 140},
			"Summary: 28 wakeups: 27 delivered (3 of them ghosts: [IDLE], nothing to do), 1 taken over by recovery or feedback; 2 more came due while one was running and joined it. 5 alerts, 1 recovery, 140 pulses.",
			"まとめ：起動28回。届けた起動27回（うち3回はゴースト：[IDLE] だけの応答）、回復か緊急のフィードバックに引き継いだ起動1回。ほかに2回は、実行中に重なったため一つにまとめました。警報5件、回復1回、パルス140回。", 28},
		{state.Counters{Wakeups: 5, Delivered: 3, DeliveryFailures: 1, Alerts: 1, Pulses: 9},
			"Summary: 5 wakeups: 3 delivered, 1 failed, 1 still running when the demo ended. 1 alert, 1 recovery, 9 pulses.", "", 5},
	} {
		if got := summaryLine(lang.English, tc.c, 1); got != tc.en {
			t.Errorf("summary\n got %q\nwant %q", got, tc.en)
		}
		if tc.ja != "" {
			if got := summaryLine(lang.Japanese, tc.c, 1); got != tc.ja {
				t.Errorf("Japanese summary\n got %q\nwant %q", got, tc.ja)
			}
		}
		// Between the first colon and the first ";" or ".", the counts add
		// up to the wakeups (the ghosts' "of them" aside).
		en := summaryLine(lang.English, tc.c, 1)
		m := regexp.MustCompile(`^Summary: (\d+) wakeups: ([^;.]*)`).FindStringSubmatch(en)
		total, _ := strconv.ParseInt(m[1], 10, 64)
		var sum int64
		for _, n := range regexp.MustCompile(`(?:^|, )(\d+) `).FindAllStringSubmatch(regexp.MustCompile(`\([^)]*\)`).ReplaceAllString(m[2], ""), -1) {
			v, _ := strconv.ParseInt(n[1], 10, 64)
			sum += v
		}
		if sum != total || total != tc.wantSumN {
			t.Errorf("%q: the parts add up to %d, the whole is %d", en, sum, total)
		}
	}
}

// A second demo in the same folder starts its day's cost and cap over.
func TestDemoStartsOver(t *testing.T) {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "stats"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"stats/cost.json", "stats/daily_cap.json", "stats/demo_agent.json"} {
		if err := os.WriteFile(filepath.Join(root, f), []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := startOver(root); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"stats/cost.json", "stats/daily_cap.json"} {
		if _, err := os.Stat(filepath.Join(root, f)); !os.IsNotExist(err) {
			t.Errorf("%s left from the last demo: %v", f, err)
		}
	}
	if err := startOver(root); err != nil {
		t.Errorf("a second start over, with nothing to remove: %v", err)
	}
}

// The demo's closing suggestion names a watchdog that runs from here:
// bin/watchdog only where that is this binary.
func TestWatchdogCommand(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	t.Chdir(dir)
	if got := watchdogCommand(); got == "bin/watchdog" {
		t.Errorf("in a folder without bin/watchdog: %q", got)
	}
	if err := os.Mkdir("bin", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(self, filepath.Join("bin", "watchdog")); err != nil {
		t.Fatal(err)
	}
	if got := watchdogCommand(); got != "bin/watchdog" {
		t.Errorf("where bin/watchdog is this binary: %q", got)
	}
}
