package scan

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// inotifyInstances counts the process's inotify file descriptors.
func inotifyInstances(t *testing.T) int {
	t.Helper()
	fds, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skip("no /proc/self/fd")
	}
	n := 0
	for _, fd := range fds {
		if l, _ := os.Readlink(filepath.Join("/proc/self/fd", fd.Name())); strings.Contains(l, "inotify") {
			n++
		}
	}
	return n
}

// More scanners than the kernel's usual 128 inotify instances per user:
// they share one, none falls back to listing, and each sees its own
// workspace's changes and no other's.
func TestScannersShareOneInotifyInstance(t *testing.T) {
	const n = 200
	before := inotifyInstances(t)
	var wss = make([]*Scanner, n)
	for i := range n {
		ws := newWS(t)
		putLog(t, ws, string(id(0))+"_theme", "creation", 1)
		wss[i] = newScanner(t, ws)
		scanOK(t, wss[i])
		if fb := wss[i].Fallback(); fb != "" {
			t.Fatalf("scanner %d fell back: %s", i, fb)
		}
	}
	if got := inotifyInstances(t) - before; got != 1 {
		t.Fatalf("%d scanners hold %d inotify instances, want 1", n, got)
	}
	// A new log in workspace 7 only.
	rel := putLog(t, wss[7].ws, string(id(0))+"_theme", "thinking", 5)
	for i, s := range wss {
		snap := scanOK(t, s)
		got := proofPath(snap.LastLog)
		if i == 7 && got != rel {
			t.Fatalf("scanner 7 missed its new log: last log %s", got)
		}
		if i != 7 && got == rel {
			t.Fatalf("scanner %d saw workspace 7's log", i)
		}
		if s.fullScans != 1 {
			t.Fatalf("scanner %d rescanned (%d full scans): events were lost or misrouted", i, s.fullScans)
		}
	}
	for _, s := range wss {
		s.Close()
	}
	if got := inotifyInstances(t) - before; got != 0 {
		t.Fatalf("after every scanner closed, %d inotify instances remain", got)
	}
}

// Two scanners of one workspace (a reload, say): closing one keeps the
// other's watches, so it still sees a new log without a rescan.
func TestClosingOneScannerKeepsTheOthersWatches(t *testing.T) {
	ws := newWS(t)
	theme := string(id(0)) + "_theme"
	putLog(t, ws, theme, "creation", 1)
	a, b := newScanner(t, ws), newScanner(t, ws)
	scanOK(t, a)
	scanOK(t, b)
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	rel := putLog(t, ws, theme, "thinking", 5)
	snap := scanOK(t, b)
	if got := proofPath(snap.LastLog); got != rel || b.fullScans != 1 {
		t.Fatalf("after the other closed: last log %s, %d full scans; want %s from events", got, b.fullScans, rel)
	}
}
