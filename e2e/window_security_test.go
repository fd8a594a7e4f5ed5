package e2e

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/testutil"
)

// The real `watchdog run`: a token file others can read stops the start;
// the window answers only to loopback names (DNS rebinding), sends its
// security headers, and takes "bearer" in any case.
func TestE2EWindowSecurity(t *testing.T) {
	t.Parallel()
	addr := freeAddr(t)
	tokenFile := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(tokenFile, []byte("tok-123\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(tokenFile, 0o644); err != nil {
		t.Fatal(err)
	}
	_, cfg, _ := initWorkspace(t, fmt.Sprintf("name: pia\npulse: {interval: 200ms}\nhttp: {listen: %q, token_file: %q}\n", addr, tokenFile))
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, filepath.Join(binDir, "watchdog"), "run", "-c", cfg).CombinedOutput()
	if err == nil || ctx.Err() != nil || !strings.Contains(string(out), "chmod o-rwx") || strings.Contains(string(out), "tok-123") {
		t.Fatalf("watchdog run with a world-readable token file: %v (ctx %v), want a refusal saying chmod o-rwx, without the token\n%s", err, ctx.Err(), out)
	}

	if err := os.Chmod(tokenFile, 0o600); err != nil {
		t.Fatal(err)
	}
	startRun(t, cfg)
	get := func(host string) *http.Response {
		req, _ := http.NewRequest("GET", "http://"+addr+"/api/v1/status", nil)
		req.Host = host
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return nil
		}
		resp.Body.Close()
		return resp
	}
	waitUntil(t, "the window", 10*time.Second, func() bool { r := get(addr); return r != nil && r.StatusCode == http.StatusOK })
	r := get(addr)
	if csp := r.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "frame-ancestors 'none'") || r.Header.Get("Referrer-Policy") != "no-referrer" {
		t.Errorf("headers %v, want a CSP with frame-ancestors 'none' and Referrer-Policy no-referrer", r.Header)
	}
	_, port, _ := net.SplitHostPort(addr)
	if r := get("rebound.example:" + port); r == nil || r.StatusCode != http.StatusMisdirectedRequest {
		t.Errorf("GET with Host rebound.example: %v, want 421", r)
	}
	if r := get("localhost:" + port); r == nil || r.StatusCode != http.StatusOK {
		t.Errorf("GET with Host localhost: %v, want 200", r)
	}
	req, _ := http.NewRequest("POST", "http://"+addr+"/api/v1/agents/pia/pause", strings.NewReader("{}"))
	req.Header.Set("Authorization", "bearer tok-123")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("pause with \"bearer tok-123\": %d, want 200", resp.StatusCode)
	}
}

// 150 idle keep-alive connections against a watchdog with 96 descriptors
// and http.max_connections 8: the window serves 8 and the pulse goes on
// writing its state. Without the cap the connections took every descriptor
// and the pulse failed with "too many open files".
func TestE2EIdleConnectionsLeaveThePulseDescriptors(t *testing.T) {
	t.Parallel()
	prlimit, err := exec.LookPath("prlimit")
	if err != nil {
		t.Skip("prlimit is not installed (Debian package util-linux)")
	}
	const nofile, limit, conns = 96, 8, 150
	addr := freeAddr(t)
	ws, cfg, _ := initWorkspace(t, fmt.Sprintf("name: pia\npulse: {interval: 100ms}\nschedule: {every: 0s}\nhttp: {listen: %q, max_connections: %d}\n", addr, limit))
	cmd := exec.Command(prlimit, fmt.Sprintf("--nofile=%d:%d", nofile, nofile), filepath.Join(binDir, "watchdog"), "run", "-c", cfg, "--log-format", "json")
	var stderr syncBuf
	cmd.Stderr = &stderr
	testutil.Start(t, cmd)
	pulses := func() float64 { return counterOf(readState(t, ws), "pulses") }
	waitUntil(t, "a pulse", 10*time.Second, func() bool { return pulses() > 0 })

	var answered atomic.Int64
	for range conns {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatalf("dial: %v", err)
		}
		t.Cleanup(func() { c.Close() })
		fmt.Fprintf(c, "GET /healthz HTTP/1.1\r\nHost: %s\r\n\r\n", addr)
		go func() {
			if resp, err := http.ReadResponse(bufio.NewReader(c), nil); err == nil {
				resp.Body.Close()
				answered.Add(1) // then it stays open, idle
			}
		}()
	}
	waitUntil(t, fmt.Sprintf("%d answers", limit), 10*time.Second, func() bool { return answered.Load() >= limit })
	p0 := pulses()
	waitUntil(t, "10 more pulses with the connections held", 20*time.Second, func() bool { return pulses() >= p0+10 })
	if fds, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", cmd.Process.Pid)); err == nil && len(fds) >= nofile-8 {
		t.Errorf("the watchdog holds %d of its %d descriptors", len(fds), nofile)
	}
	if strings.Contains(stderr.String(), "too many open files") {
		t.Errorf("the watchdog ran out of descriptors:\n%s", stderr.String())
	}
}

// syncBuf is a buffer a process's output goroutine writes while the test reads.
type syncBuf struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuf) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuf) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
