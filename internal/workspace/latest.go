package workspace

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"

	"github.com/gofrs/flock"
)

// Proof is one file that proves activity: an activity log or a checkpoint.
type Proof struct {
	Path    string       `json:"path"` // slash-separated, workspace-relative
	ID      ID           `json:"id"`
	ModTime time.Time    `json:"mod_time"`
	Type    ActivityType `json:"type,omitempty"`    // logs only
	Message string       `json:"message,omitempty"` // checkpoints: the latest line
}

// Latest is the latest-proof index, stats/latest_proof.json. It lets a tool
// call answer "when was the last log, introspection, checkpoint" without
// walking the history. mcp-heart updates it on every write; the watchdog
// updates it when its scan sees a proof written by other means.
type Latest struct {
	Log           *Proof `json:"log,omitempty"`
	Introspection *Proof `json:"introspection,omitempty"`
	Checkpoint    *Proof `json:"checkpoint,omitempty"`
}

// NewestProof is the newer of the last log and the last checkpoint, or nil.
func (l Latest) NewestProof() *Proof {
	switch {
	case l.Log == nil:
		return l.Checkpoint
	case l.Checkpoint == nil:
		return l.Log
	case l.Checkpoint.ModTime.After(l.Log.ModTime):
		return l.Checkpoint
	}
	return l.Log
}

// NoteLog records an activity log if it is at least as new as the one held.
func (l *Latest) NoteLog(p Proof) {
	if newer(l.Log, p) {
		c := p
		l.Log = &c
	}
	if p.Type == Introspection && newer(l.Introspection, p) {
		c := p
		l.Introspection = &c
	}
}

// NoteCheckpoint records a checkpoint if it is at least as new as the one held.
func (l *Latest) NoteCheckpoint(p Proof) {
	if newer(l.Checkpoint, p) {
		c := p
		l.Checkpoint = &c
	}
}

func newer(held *Proof, p Proof) bool {
	return held == nil || held.Path == p.Path || !p.ModTime.Before(held.ModTime)
}

// ReadLatest reads the index as stored; fs.ErrNotExist when there is none.
func (w *Workspace) ReadLatest() (Latest, error) {
	var l Latest
	b, err := os.ReadFile(w.Path(LatestFile))
	if err != nil {
		return l, fmt.Errorf("read %s: %w", LatestFile, err)
	}
	if err := json.Unmarshal(b, &l); err != nil {
		return Latest{}, fmt.Errorf("read %s: %w", LatestFile, err)
	}
	return l, nil
}

// UpdateLatest changes the index under an exclusive lock held across
// processes (stats/.latest_proof.lock), so concurrent writers never lose each
// other's entries. fn sees the verified index (see LoadLatest).
func (w *Workspace) UpdateLatest(fn func(*Latest)) error {
	if err := os.MkdirAll(w.Path(StatsDir), 0o755); err != nil {
		return fmt.Errorf("update %s: %w", LatestFile, err)
	}
	lock := flock.New(w.Path(StatsDir, ".latest_proof.lock"))
	if err := lock.Lock(); err != nil {
		return fmt.Errorf("lock %s: %w", LatestFile, err)
	}
	defer lock.Unlock()
	l, err := w.LoadLatest()
	if err != nil {
		return err
	}
	before, _ := json.Marshal(l)
	fn(&l)
	after, err := json.MarshalIndent(l, "", "  ")
	if err != nil {
		return fmt.Errorf("update %s: %w", LatestFile, err)
	}
	if compact, _ := json.Marshal(l); string(compact) == string(before) {
		if _, err := os.Stat(w.Path(LatestFile)); err == nil {
			return nil // unchanged: skip the write
		}
	}
	return w.WriteFile(LatestFile, append(after, '\n'))
}

// LoadLatest returns the index, checked against the files it names: an entry
// whose file is gone is dropped, a changed modification time is taken over.
// With no index (or a dropped log entry) the history is scanned once.
func (w *Workspace) LoadLatest() (Latest, error) {
	l, err := w.ReadLatest()
	missing := errors.Is(err, fs.ErrNotExist)
	if err != nil && !missing {
		missing = true // a corrupt index is rebuilt, never fatal
	}
	if !missing {
		l.Log = w.verify(l.Log)
		l.Introspection = w.verify(l.Introspection)
		l.Checkpoint = w.verify(l.Checkpoint)
		missing = l.Log == nil
	}
	if missing {
		scanned, err := w.ScanLatest()
		if err != nil {
			return l, err
		}
		if l.Checkpoint != nil {
			scanned.NoteCheckpoint(*l.Checkpoint)
		}
		return scanned, nil
	}
	return l, nil
}

// verify stats the file a proof names.
func (w *Workspace) verify(p *Proof) *Proof {
	if p == nil {
		return nil
	}
	fi, err := os.Stat(w.Path(p.Path))
	if err != nil {
		return nil
	}
	if !fi.ModTime().Equal(p.ModTime) {
		c := *p
		c.ModTime = fi.ModTime()
		return &c
	}
	return p
}
