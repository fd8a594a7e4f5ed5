//go:build linux

package e2e

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/testutil"
)

// TestE2ETmuxNeverTalksToTheAgentsServer: the agent, as another user,
// listens on the socket agent.tmux_socket names, as a tmux server of its
// own would (one that answers the client with "run this shell" and reads
// the environment it sends). The watchdog never connects: each wakeup is
// refused before tmux runs, with one `delivery` error alert that names the
// socket's owner.
func TestE2ETmuxNeverTalksToTheAgentsServer(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed")
	}
	if os.Geteuid() != 0 {
		t.Skip("needs root to give the socket to another user (internal/delivery covers the rule without)")
	}
	sock := filepath.Join(t.TempDir(), "agent.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	if err := os.Chown(sock, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var heard []byte // what a client sent the agent's server
	connected := false
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			connected = true
			mu.Unlock()
			go func() {
				defer c.Close()
				buf := make([]byte, 64<<10)
				for {
					_ = c.SetReadDeadline(time.Now().Add(5 * time.Second))
					n, err := c.Read(buf)
					mu.Lock()
					heard = append(heard, buf[:n]...)
					mu.Unlock()
					if err != nil {
						return
					}
				}
			}()
		}
	}()
	_, cfg, alerts := initWorkspace(t, "pulse: {interval: 300ms}\nschedule: {every: 1s}\n"+
		fmt.Sprintf("agent: {delivery: tmux, tmux_target: agent, tmux_socket: %q}\n", sock))
	cmd := exec.Command(filepath.Join(binDir, "watchdog"), "run", "-c", cfg, "--log-format", "json")
	cmd.Env = append(os.Environ(), "AIHEART_T1_SECRET=hunter2")
	testutil.Start(t, cmd)
	waitUntil(t, "a delivery alert, or the watchdog at the agent's server", 20*time.Second, func() bool {
		mu.Lock()
		defer mu.Unlock()
		return connected || has(alertsIn(t, alerts), "delivery=error")
	})
	mu.Lock()
	if connected {
		got := string(heard)
		mu.Unlock()
		t.Fatalf("the watchdog's tmux client connected to the agent's server (uid 65534) and sent it %d bytes, its secret among them: %v",
			len(got), strings.Contains(got, "AIHEART_T1_SECRET=hunter2"))
	}
	mu.Unlock()
	msg := alertMessage(t, alerts, "delivery")
	for _, s := range []string{sock, "uid 65534"} {
		if !strings.Contains(msg, s) {
			t.Errorf("the delivery alert %q does not name %q", msg, s)
		}
	}
	// Wakeups go on being refused (the breaker counts them), each without
	// a second alert for the same reason.
	waitUntil(t, "two more refused wakeups", 20*time.Second, func() bool {
		b, _ := os.ReadFile(alerts)
		return strings.Contains(string(b), `"check":"circuit_breaker"`)
	})
	if n := len(messagesOf(t, alerts, "delivery")); n != 1 {
		t.Errorf("%d delivery alerts for one refused socket, want 1", n)
	}
	mu.Lock()
	defer mu.Unlock()
	if connected {
		t.Fatal("the watchdog's tmux client connected to the agent's server after all")
	}
}
