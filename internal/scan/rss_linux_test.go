package scan_test

import (
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/scan"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

const rssChildEnv = "AIHEART_RSS_CHILD"

// TestPeakRSS1M runs a first scan of the 1M-log workspace in a child process
// and reads the child's peak resident set size (docs/design.md section 6: under 100 MB).
func TestPeakRSS1M(t *testing.T) {
	sz := sizes[2]
	skip1M(t, sz)
	ws := benchWorkspace(t, sz)
	cmd := exec.Command(os.Args[0], "-test.run=^TestRSSChild$", "-test.v")
	cmd.Env = append(os.Environ(), rssChildEnv+"="+ws.Root)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	mb := float64(ru.Maxrss) / 1024 // Linux reports KiB
	t.Logf("first scan of %d logs: peak RSS %.1f MB\n%s", sz.logs, mb, out)
	if mb >= 100 {
		t.Errorf("peak RSS = %.1f MB, want under 100 MB", mb)
	}
}

// TestRSSChild is the child of TestPeakRSS1M; it does nothing otherwise.
func TestRSSChild(t *testing.T) {
	root := os.Getenv(rssChildEnv)
	if root == "" {
		t.Skip("child of TestPeakRSS1M only")
	}
	ws, err := workspace.New(root, time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	s := scan.NewScanner(ws)
	defer s.Close()
	start := time.Now()
	snap, err := s.Scan()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("first scan %s; last log %s", time.Since(start).Round(time.Millisecond), snap.LastLog.Path)
}
