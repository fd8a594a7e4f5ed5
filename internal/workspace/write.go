package workspace

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/ai-heart/ai-heart/internal/safeopen"
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
	// The folder is opened once, inside the root; every name tried is then
	// one component in it, with no path to walk again.
	d, err := openRootAt(w.Root, rootName(dir))
	if err != nil {
		return "", fmt.Errorf("claim in %s: %w", dir, err)
	}
	defer d.Close()
	tmp, err := stageTemp(d, ".", data, time.Time{})
	if err != nil {
		return "", fmt.Errorf("claim in %s: %w", dir, err)
	}
	defer d.Remove(tmp)
	for n := 0; n <= MaxSequence; n++ {
		name := SequenceName(id, n, ext)
		err := d.Link(tmp, name)
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
	if d, err := safeopen.OpenDir(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
}

// Rename moves a workspace file to a new name inside the workspace. It never
// replaces an existing file: if newRel exists the rename fails with
// os.ErrExist, so nothing the agent wrote is lost.
func (w *Workspace) Rename(oldRel, newRel string) error {
	if _, err := w.Resolve(oldRel); err != nil {
		return fmt.Errorf("rename %s: %w", oldRel, err)
	}
	newAbs, err := w.Resolve(newRel)
	if err != nil {
		return fmt.Errorf("rename %s: %w", oldRel, err)
	}
	// Through the root, so a symlink planted after the check above cannot
	// carry the rename out of the workspace.
	afterCheck()
	r, err := os.OpenRoot(w.Root)
	if err != nil {
		return fmt.Errorf("rename %s: %w", oldRel, err)
	}
	defer r.Close()
	o, n := rootName(oldRel), rootName(newRel)
	// A regular file is hard-linked to its new name and then unlinked: the
	// link fails if the name exists, so two concurrent renames onto one name
	// cannot both succeed (checking first and then renaming can, and loses a
	// file). Folders, symlinks and file systems without links fall back.
	if fi, err := r.Lstat(o); err == nil && fi.Mode().IsRegular() {
		err := r.Link(o, n)
		if errors.Is(err, os.ErrExist) {
			return fmt.Errorf("rename %s to %s: %w", oldRel, newRel, os.ErrExist)
		}
		if err == nil {
			if err := r.Remove(o); err != nil {
				return fmt.Errorf("rename %s: %w", oldRel, err)
			}
			syncDir(filepath.Dir(newAbs))
			return nil
		}
	}
	if _, err := r.Lstat(n); err == nil {
		return fmt.Errorf("rename %s to %s: %w", oldRel, newRel, os.ErrExist)
	}
	if err := r.Rename(o, n); err != nil {
		return fmt.Errorf("rename %s: %w", oldRel, err)
	}
	return nil
}

// openRootAt opens the folder rel of the workspace at root as a root of its
// own, resolved inside the workspace.
func openRootAt(root, rel string) (*os.Root, error) {
	r, err := os.OpenRoot(root)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return r.OpenRoot(rel)
}

// afterCheck runs between the containment check and the write, for a test
// that plants a symlink there.
var afterCheck = func() {}

// rootName is a workspace-relative path as an os.Root name.
func rootName(rel string) string {
	return path.Clean(strings.ReplaceAll(rel, `\`, "/"))
}

// stageTemp writes data to a new dot-named temp file in the root's folder
// dir, synced and closed, with mtime set when non-zero, and returns its
// name in the root. The caller links it into place and removes the temp
// name; readers never see a partial file under a real name.
func stageTemp(r *os.Root, dir string, data []byte, mtime time.Time) (string, error) {
	var name string
	var f *os.File
	for range 100 {
		name = path.Join(dir, ".stage-"+strconv.FormatUint(uint64(rand.Uint32()), 10))
		var err error
		f, err = r.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err == nil {
			break
		}
		if !errors.Is(err, os.ErrExist) {
			return "", err
		}
	}
	if f == nil {
		return "", fmt.Errorf("stage a temp file in %s: every name tried exists", dir)
	}
	_, err := f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil && !mtime.IsZero() {
		err = r.Chtimes(name, mtime, mtime)
	}
	if err != nil {
		r.Remove(name)
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
	afterCheck()
	r, err := os.OpenRoot(w.Root)
	if err != nil {
		return fmt.Errorf("create %s: %w", rel, err)
	}
	defer r.Close()
	name := rootName(rel)
	if _, err := r.Lstat(name); err == nil {
		return fmt.Errorf("create %s: %w", rel, os.ErrExist)
	}
	dir := path.Dir(name)
	if err := r.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("create %s: %w", rel, err)
	}
	d, err := r.OpenRoot(dir)
	if err != nil {
		return fmt.Errorf("create %s: %w", rel, err)
	}
	defer d.Close()
	tmp, err := stageTemp(d, ".", data, mtime)
	if err != nil {
		return fmt.Errorf("create %s: %w", rel, err)
	}
	defer d.Remove(tmp)
	if err := d.Link(tmp, path.Base(name)); err != nil {
		if errors.Is(err, os.ErrExist) {
			return fmt.Errorf("create %s: %w", rel, os.ErrExist)
		}
		return fmt.Errorf("create %s: %w", rel, err)
	}
	syncDir(filepath.Dir(abs))
	return nil
}
