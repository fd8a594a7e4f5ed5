package delivery

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/ai-heart/ai-heart/internal/workspace"
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
	b, err := json.Marshal(runRecord{PGID: pid, Start: start, Boot: boot})
	if err != nil {
		return
	}
	if os.MkdirAll(filepath.Dir(e.RunFile), 0o700) == nil {
		_ = workspace.AtomicWriteFile(e.RunFile, b, 0o600)
	}
}

// forgetRun removes the record of the run that ended.
func (e *Exec) forgetRun() {
	if e.RunFile != "" {
		_ = os.Remove(e.RunFile)
	}
}

// readRun reads a run record; none is (nil, nil).
func readRun(path string) (*runRecord, error) {
	b, err := workspace.ReadAgentFile(path, 4<<10)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var r runRecord
	if err := json.Unmarshal(b, &r); err != nil || r.PGID <= 1 {
		return nil, errors.New("run record " + path + " is damaged")
	}
	return &r, nil
}
