package delivery

import (
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/testutil"
)

// A run started while the state disk is full still leaves its record, so
// the watchdog after a kill -9 ends what it left alive. Before, the record
// was lost: the old run's child lived on beside the new runs, unalerted.
func TestRunRecordSurvivesAFullDisk(t *testing.T) {
	dir := testutil.SmallDisk(t, "256k")
	e := &Exec{RunFile: filepath.Join(dir, "run.json")}
	e.noteRun(syscall.Getpid()) // an earlier run, on a disk with room
	e.forgetRun()
	free := testutil.FillDisk(t, dir)
	defer free()

	cmd := exec.Command("sleep", "60")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	p := testutil.Start(t, cmd)
	e.noteRun(cmd.Process.Pid)
	// kill -9 of the watchdog: the next one reads the record.
	pgid, err := EndLeftover(e.RunFile, time.Second)
	if err != nil || pgid != cmd.Process.Pid {
		t.Fatalf("EndLeftover = %d, %v; want the run's group %d ended", pgid, err, cmd.Process.Pid)
	}
	select {
	case <-p.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("the run left alive is still alive")
	}
}
