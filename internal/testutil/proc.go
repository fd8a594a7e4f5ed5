package testutil

import (
	"os"
	"os/exec"
	"testing"
	"time"
)

// Grace is how long a process a test started gets to end on SIGTERM before
// its process group gets SIGKILL.
const Grace = 5 * time.Second

// Proc is a process started by Start.
type Proc struct {
	Cmd  *exec.Cmd
	done chan struct{}
	err  error
}

// Start starts cmd as the leader of a process group of its own, reaps it in
// the background (call p.Wait, never cmd.Wait), and ends the group when the
// test ends: SIGTERM to the group, then SIGKILL to whatever of it is left
// after Grace. SIGTERM first lets a watchdog end the agent runs it started
// (each leads a group of its own, out of reach of this one's signals).
func Start(t testing.TB, cmd *exec.Cmd) *Proc {
	t.Helper()
	ownGroup(cmd)
	if cmd.WaitDelay == 0 {
		cmd.WaitDelay = Grace // a straggler outside the group holding its stdout must not hang Wait
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", cmd.Path, err)
	}
	p := &Proc{Cmd: cmd, done: make(chan struct{})}
	go func() { p.err = cmd.Wait(); close(p.done) }()
	t.Cleanup(func() {
		endGroup(cmd.Process, Grace)
		select {
		case <-p.done:
		case <-time.After(Grace):
			t.Errorf("%s (pid %d) not reaped after SIGKILL", cmd.Path, cmd.Process.Pid)
		}
	})
	return p
}

// Wait waits for the process to exit and returns cmd.Wait's error. Any
// number of goroutines may call it.
func (p *Proc) Wait() error {
	<-p.done
	return p.err
}

// Done is closed once the process has exited and been reaped.
func (p *Proc) Done() <-chan struct{} { return p.done }

// Signal sends sig to the process (the leader only, not its group).
func (p *Proc) Signal(sig os.Signal) error { return p.Cmd.Process.Signal(sig) }
