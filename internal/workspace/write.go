package workspace

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// ErrSequenceFull reports that <ID>.md and <ID>_01.md .. <ID>_99.md all exist.
var ErrSequenceFull = errors.New("all 100 names for this heartbeat ID are taken")

// MaxSequence is the highest NN of an <ID>_NN.md name.
const MaxSequence = 99

// WriteFile atomically writes data to the workspace-relative path rel,
// creating its folder; the path must stay inside the workspace.
func (w *Workspace) WriteFile(rel string, data []byte) error {
	abs, err := w.Resolve(rel)
	if err != nil {
		return fmt.Errorf("write %s: %w", rel, err)
	}
	if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
		return fmt.Errorf("write %s: %w", rel, err)
	}
	if err := atomicWrite(abs, data); err != nil {
		return fmt.Errorf("write %s: %w", rel, err)
	}
	return nil
}

// SequenceName is the n-th name for id with the given extension: n = 0 gives
// "<ID>.md", n = 1..99 gives "<ID>_NN.md".
func SequenceName(id ID, n int, ext string) string {
	if n == 0 {
		return string(id) + ext
	}
	return fmt.Sprintf("%s_%02d%s", id, n, ext)
}

// ClaimSequenced writes data under the first free name of <ID>.md,
// <ID>_01.md .. <ID>_99.md in the workspace folder dir and returns that name's
// workspace-relative path. The whole content is written and synced to a
// dot-named temp file first and then hard-linked into place: the link fails
// when the name exists, so concurrent writers never share or clobber a name,
// and the name never holds a partial file.
func (w *Workspace) ClaimSequenced(dir string, id ID, ext string, data []byte) (string, error) {
	absDir, err := w.Resolve(dir)
	if err != nil {
		return "", fmt.Errorf("claim in %s: %w", dir, err)
	}
	tmpName, err := stageTemp(absDir, data, time.Time{})
	if err != nil {
		return "", fmt.Errorf("claim in %s: %w", dir, err)
	}
	defer os.Remove(tmpName)
	for n := 0; n <= MaxSequence; n++ {
		name := SequenceName(id, n, ext)
		err := os.Link(tmpName, filepath.Join(absDir, name))
		if err == nil {
			syncDir(absDir)
			return dir + "/" + name, nil
		}
		if !errors.Is(err, os.ErrExist) {
			return "", fmt.Errorf("claim %s/%s: %w", dir, name, err)
		}
	}
	return "", fmt.Errorf("claim in %s for %s: %w", dir, id, ErrSequenceFull)
}

// syncDir makes a new directory entry durable; best effort (not on Windows).
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
}

// Rename moves a workspace file to a new name inside the workspace. It never
// replaces an existing file: if newRel exists the rename fails with
// os.ErrExist, so nothing the agent wrote is lost.
func (w *Workspace) Rename(oldRel, newRel string) error {
	oldAbs, err := w.Resolve(oldRel)
	if err != nil {
		return fmt.Errorf("rename %s: %w", oldRel, err)
	}
	newAbs, err := w.Resolve(newRel)
	if err != nil {
		return fmt.Errorf("rename %s: %w", oldRel, err)
	}
	// A regular file is hard-linked to its new name and then unlinked: the
	// link fails if the name exists, so two concurrent renames onto one name
	// cannot both succeed (checking first and then renaming can, and loses a
	// file). Folders, symlinks and file systems without links fall back.
	if fi, err := os.Lstat(oldAbs); err == nil && fi.Mode().IsRegular() {
		err := os.Link(oldAbs, newAbs)
		if errors.Is(err, os.ErrExist) {
			return fmt.Errorf("rename %s to %s: %w", oldRel, newRel, os.ErrExist)
		}
		if err == nil {
			if err := os.Remove(oldAbs); err != nil {
				return fmt.Errorf("rename %s: %w", oldRel, err)
			}
			syncDir(filepath.Dir(newAbs))
			return nil
		}
	}
	if _, err := os.Lstat(newAbs); err == nil {
		return fmt.Errorf("rename %s to %s: %w", oldRel, newRel, os.ErrExist)
	}
	if err := os.Rename(oldAbs, newAbs); err != nil {
		return fmt.Errorf("rename %s: %w", oldRel, err)
	}
	return nil
}

// stageTemp writes data to a new dot-named temp file in dir, synced and
// closed, with mtime set when non-zero. The caller links it into place and
// removes the temp name; readers never see a partial file under a real name.
func stageTemp(dir string, data []byte, mtime time.Time) (string, error) {
	tmp, err := os.CreateTemp(dir, ".stage-*")
	if err != nil {
		return "", err
	}
	name := tmp.Name()
	_ = tmp.Chmod(0o644) // CreateTemp makes 0600; best effort on Windows.
	_, err = tmp.Write(data)
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil && !mtime.IsZero() {
		err = os.Chtimes(name, mtime, mtime)
	}
	if err != nil {
		os.Remove(name)
		return "", err
	}
	return name, nil
}

// CreateNew writes data to the workspace-relative path rel only if nothing of
// that name exists, creating its folder; otherwise it fails wrapping
// os.ErrExist and writes nothing. The content is staged in a temp file and
// hard-linked into place, so an existing file is never touched and the name
// never holds a partial file. A non-zero mtime is set on the new file
// (migrate keeps the old files' times). For names that are one per heartbeat
// ID (declarations, theme records) and for init and migrate.
func (w *Workspace) CreateNew(rel string, data []byte, mtime time.Time) error {
	abs, err := w.Resolve(rel)
	if err != nil {
		return fmt.Errorf("create %s: %w", rel, err)
	}
	if _, err := os.Lstat(abs); err == nil {
		return fmt.Errorf("create %s: %w", rel, os.ErrExist)
	}
	dir := filepath.Dir(abs)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("create %s: %w", rel, err)
	}
	tmpName, err := stageTemp(dir, data, mtime)
	if err != nil {
		return fmt.Errorf("create %s: %w", rel, err)
	}
	defer os.Remove(tmpName)
	if err := os.Link(tmpName, abs); err != nil {
		if errors.Is(err, os.ErrExist) {
			return fmt.Errorf("create %s: %w", rel, os.ErrExist)
		}
		return fmt.Errorf("create %s: %w", rel, err)
	}
	syncDir(dir)
	return nil
}
