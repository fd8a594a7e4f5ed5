package workspace

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/gofrs/flock"
)

// This file holds the writes mcp-heart needs beyond the foundation: an
// exclusive create for names that are one per heartbeat ID (declarations,
// theme records) and a locked checkpoint append, so concurrent servers on one
// workspace neither clobber a name nor lose a checkpoint line.

// CreateExclusive writes data to the workspace-relative path rel only if no
// file has that name yet; otherwise it fails with os.ErrExist and writes
// nothing. Like ClaimSequenced, the whole content goes to a dot-named temp file
// first and is hard-linked into place, so the name never holds a partial file.
func (w *Workspace) CreateExclusive(rel string, data []byte) error {
	abs, err := w.Resolve(rel)
	if err != nil {
		return fmt.Errorf("create %s: %w", rel, err)
	}
	dir := filepath.Dir(abs)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("create %s: %w", rel, err)
	}
	tmp, err := os.CreateTemp(dir, ".create-*")
	if err != nil {
		return fmt.Errorf("create %s: %w", rel, err)
	}
	tmpName := tmp.Name()
	defer os.Remove(tmpName)
	_ = tmp.Chmod(0o644) // CreateTemp makes 0600; best effort on Windows.
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("create %s: %w", rel, err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("create %s: %w", rel, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("create %s: %w", rel, err)
	}
	if err := os.Link(tmpName, abs); err != nil {
		if errors.Is(err, os.ErrExist) {
			return fmt.Errorf("create %s: %w", rel, os.ErrExist)
		}
		return fmt.Errorf("create %s: %w", rel, err)
	}
	syncDir(dir)
	return nil
}

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
	if err := os.MkdirAll(w.Path(CheckpointsDir), 0o755); err != nil {
		return Proof{}, fmt.Errorf("add checkpoint: %w", err)
	}
	lock := flock.New(w.Path(StatsDir, checkpointLock))
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
