package scan

import (
	"fmt"
	"strings"
	"syscall"
	"testing"
)

// The kernel's inotify watch limit: the scanner says so once, stops
// watching, and lists the workspace every scan, so a new log is still seen.
func TestWatchLimitFallsBackToPolling(t *testing.T) {
	for _, tt := range []struct {
		name     string
		errno    syscall.Errno
		fallback bool
	}{
		{"ENOSPC: max_user_watches", syscall.ENOSPC, true},
		{"EACCES: one folder, not the limit", syscall.EACCES, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ws := newWS(t)
			theme := string(id(0)) + "_theme"
			putLog(t, ws, theme, "creation", 1)
			var logs []string
			s := newScanner(t, ws)
			s.Logf = func(f string, a ...any) { logs = append(logs, fmt.Sprintf(f, a...)) }
			n := 0
			s.addWatch = func(path string) error {
				if n++; n > 3 {
					return tt.errno
				}
				return nil
			}
			scanOK(t, s)
			if got := s.Fallback() != ""; got != tt.fallback {
				t.Fatalf("Fallback() = %q, want fallback %v", s.Fallback(), tt.fallback)
			}
			if !tt.fallback {
				return
			}
			if !strings.Contains(s.Fallback(), "max_user_watches") {
				t.Errorf("Fallback() = %q, want the sysctl named", s.Fallback())
			}
			newest := putLog(t, ws, theme, "creation", 9)
			for i := 0; i < 3; i++ {
				snap := scanOK(t, s)
				if proofPath(snap.LastLog) != newest {
					t.Fatalf("scan %d after the fallback: LastLog = %v, want %s", i, snap.LastLog, newest)
				}
			}
			if s.w != nil || n > 4 {
				t.Errorf("still watching after the fallback (%d Add calls)", n)
			}
			limitLines := 0
			for _, l := range logs {
				if strings.Contains(l, "inotify limit reached") {
					limitLines++
				}
			}
			if limitLines != 1 {
				t.Errorf("%d log lines about the limit, want 1:\n%s", limitLines, strings.Join(logs, "\n"))
			}
		})
	}
}
