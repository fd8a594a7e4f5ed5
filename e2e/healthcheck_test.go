package e2e

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// The watchdog's dead-man's switch against a real `watchdog run`: a
// loopback service sees a ping per interval while the watchdog pulses, none
// once it has stopped, and the URL (a secret, read from a file) is nowhere
// in the watchdog's log.
func TestE2EHealthcheckPingsWhileTheWatchdogRuns(t *testing.T) {
	var mu sync.Mutex
	var pings []time.Time
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/ping/0f3c-secret" {
			mu.Lock()
			pings = append(pings, time.Now())
			mu.Unlock()
		}
	}))
	t.Cleanup(srv.Close)
	urlFile := filepath.Join(t.TempDir(), "hc-url")
	if err := os.WriteFile(urlFile, []byte(srv.URL+"/ping/0f3c-secret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, cfg, _ := initWorkspace(t, "pulse: {interval: 100ms}\nschedule: {every: 0s}\nhealthcheck: {url_file: "+urlFile+", interval: 1s}\n")
	run, stderr := startRun(t, cfg)
	count := func() int { mu.Lock(); defer mu.Unlock(); return len(pings) }
	waitUntil(t, "three pings", 10*time.Second, func() bool { return count() >= 3 })
	mu.Lock()
	for i := 1; i < len(pings); i++ {
		if gap := pings[i].Sub(pings[i-1]); gap < 900*time.Millisecond {
			t.Errorf("pings %s apart with a pulse of 100ms, want at most one a second", gap)
		}
	}
	mu.Unlock()
	run.Signal(syscall.SIGTERM)
	if err := run.Wait(); err != nil {
		t.Fatalf("watchdog run: %v\n%s", err, stderr)
	}
	stopped, seen := time.Now(), count()
	// The process is gone: nothing can ping any more. What came before it
	// went came before its exit.
	mu.Lock()
	last := pings[len(pings)-1]
	mu.Unlock()
	if !last.Before(stopped) || count() != seen {
		t.Fatalf("a ping after the watchdog stopped")
	}
	if strings.Contains(stderr.String(), "0f3c-secret") {
		t.Fatalf("the log shows the ping URL's secret:\n%s", stderr)
	}
	if !strings.Contains(stderr.String(), "dead-man's switch") {
		t.Fatalf("the log does not say the switch is on:\n%s", stderr)
	}
}
