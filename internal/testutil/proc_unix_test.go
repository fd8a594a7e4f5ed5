//go:build unix

package testutil

import (
	"bufio"
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"
)

// Start's cleanup ends the whole group: a grandchild that outlives its
// parent, and one that ignores SIGTERM (as Gemini CLI's node processes
// ignore the hang-up), are gone once the test that started them has ended.
func TestStartEndsTheGroup(t *testing.T) {
	for name, script := range map[string]string{
		"orphan":         "sleep 300 & echo ready; exit 0",
		"ignoresSIGTERM": "trap '' TERM; sleep 300 & echo ready; wait",
	} {
		var pgid int
		t.Run(name, func(t *testing.T) {
			r, w, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			cmd := exec.Command("sh", "-c", script)
			cmd.Stdout = w
			p := Start(t, cmd)
			w.Close()
			// Ended only once its processes are there.
			if _, err := bufio.NewReader(r).ReadString('\n'); err != nil {
				t.Fatalf("no ready line: %v", err)
			}
			pgid = p.Cmd.Process.Pid
		})
		// Killed processes linger as zombies until PID 1 reaps them.
		deadline := time.Now().Add(10 * time.Second)
		for syscall.Kill(-pgid, 0) == nil && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		if err := syscall.Kill(-pgid, 0); err != syscall.ESRCH {
			t.Errorf("%s: group %d after the test: kill -0 = %v, want ESRCH", name, pgid, err)
			syscall.Kill(-pgid, syscall.SIGKILL)
		}
	}
}
