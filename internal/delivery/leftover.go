package delivery

import (
	"errors"

	"github.com/ai-heart/ai-heart/internal/statefile"
)

// runRecord is a live exec run, as RunFile keeps it: its process group and
// what tells the group's leader from a later process given the same pid.
type runRecord struct {
	PGID  int    `json:"pgid"`
	Start uint64 `json:"start_ticks"` // the leader's start, in clock ticks since boot
	Boot  string `json:"boot_id"`
}

// noteRun records the run just started (best effort: a run is never held
// back because its record could not be written).
func (e *Exec) noteRun(pid int) {
	if e.RunFile == "" {
		return
	}
	start, boot, ok := procStart(pid)
	if !ok {
		return
	}
	_ = statefile.WriteKept(e.RunFile, runRecord{PGID: pid, Start: start, Boot: boot})
}

// forgetRun removes the record of the run that ended.
func (e *Exec) forgetRun() {
	if e.RunFile != "" {
		_ = statefile.RemoveKept(e.RunFile)
	}
}

// readRun reads a run record; none is (nil, nil).
func readRun(path string) (*runRecord, error) {
	var r runRecord
	found, err := statefile.ReadKept(path, &r)
	switch {
	case !found:
		return nil, nil
	case err != nil || r.PGID <= 1:
		return nil, errors.New("run record " + path + " is damaged")
	}
	return &r, nil
}
