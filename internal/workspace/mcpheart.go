package workspace

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/gofrs/flock"
)

// This file holds the locked checkpoint append mcp-heart needs, so concurrent
// servers on one workspace never lose a checkpoint line.

// checkpointLock is held while a checkpoint file is read, extended and
// replaced, so two servers appending at once never drop each other's line.
const checkpointLock = ".checkpoint.lock"

// AddCheckpoint appends the line "HH:MM:SS msg" (t in the workspace's zone)
// to stats/checkpoints/<id>.txt, rewriting the file atomically with its old
// lines kept, and records it in the latest-proof index. Both happen under a
// lock shared by every process, so the index's message is the file's last
// line. It returns the new entry as a proof.
func (w *Workspace) AddCheckpoint(id ID, t time.Time, msg string) (Proof, error) {
	rel := CheckpointsDir + "/" + string(id) + ".txt"
	stats, err := w.statsDir()
	if err != nil {
		return Proof{}, fmt.Errorf("add checkpoint: %w", err)
	}
	dir, err := w.Resolve(CheckpointsDir)
	if err != nil {
		return Proof{}, fmt.Errorf("add checkpoint: %w", err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return Proof{}, fmt.Errorf("add checkpoint: %w", err)
	}
	lock := flock.New(filepath.Join(stats, checkpointLock))
	if err := lock.Lock(); err != nil {
		return Proof{}, fmt.Errorf("lock checkpoints: %w", err)
	}
	defer lock.Unlock()
	abs, err := w.Resolve(rel)
	if err != nil {
		return Proof{}, fmt.Errorf("add checkpoint: %w", err)
	}
	old, err := os.ReadFile(abs)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return Proof{}, fmt.Errorf("add checkpoint: %w", err)
	}
	if err := w.WriteFile(rel, AppendCheckpoint(old, t.In(w.Loc), msg)); err != nil {
		return Proof{}, fmt.Errorf("add checkpoint: %w", err)
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return Proof{}, fmt.Errorf("add checkpoint: %w", err)
	}
	p := Proof{Path: rel, ID: id, ModTime: fi.ModTime(), Message: OneLine(msg)}
	if err := w.UpdateLatest(func(l *Latest) { l.NoteCheckpoint(p) }); err != nil {
		return p, err
	}
	return p, nil
}
