package workspace

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
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
	tmp, err := os.CreateTemp(absDir, ".claim-*")
	if err != nil {
		return "", fmt.Errorf("claim in %s: %w", dir, err)
	}
	tmpName := tmp.Name()
	defer os.Remove(tmpName)
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return "", fmt.Errorf("claim in %s: %w", dir, err)
	}
	_ = tmp.Chmod(0o644) // CreateTemp makes 0600; best effort on Windows.
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return "", fmt.Errorf("claim in %s: %w", dir, err)
	}
	if err := tmp.Close(); err != nil {
		return "", fmt.Errorf("claim in %s: %w", dir, err)
	}
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
