package workspace

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path"
	"strconv"
	"time"

	"github.com/ai-heart/ai-heart/internal/safeopen"
)

// ErrSequenceFull reports that <ID>.md and <ID>_01.md .. <ID>_99.md all exist.
var ErrSequenceFull = errors.New("all 100 names for this heartbeat ID are taken")

// MaxSequence is the highest NN of an <ID>_NN.md name.
const MaxSequence = 99

// WriteFile atomically replaces the workspace-relative file rel with data,
// creating its folder, inside the workspace's root: the whole content goes to
// a new dot-named temp file (created with O_EXCL) in the file's folder, is
// synced, and is renamed over the name in that same folder, opened once. A
// kill at any instant leaves the old file or the new one, and at worst a
// dot-named temp that SweepTemps removes; a folder swapped for a link
// meanwhile cannot move the write out of the workspace. An existing file
// keeps its permissions.
func (w *Workspace) WriteFile(rel string, data []byte) error {
	return w.replace(rel, data, true)
}

// WriteFileNoSync is WriteFile without its two fsyncs (the file's and its
// folder's): still a whole temp file renamed over the name, so a reader
// never sees a part and a killed watchdog leaves the old file or the new
// one. What it gives up is the power cut: the file may then come back older
// (ext4 commits the new data with the rename) or, on other file systems,
// empty, which its readers take as "not written yet". Only for a file the
// watchdog writes again at every pulse and never reads back, so that a
// restart puts it right at its first pulse: the heartbeat ID and the state's
// published copy. The syncs cost most of a pulse.
func (w *Workspace) WriteFileNoSync(rel string, data []byte) error {
	return w.replace(rel, data, false)
}

func (w *Workspace) replace(rel string, data []byte, durable bool) error {
	var sync syncer
	if durable {
		sync = w.fsync()
	}
	err := w.in(rel, func(r *os.Root, name string) error {
		dir, base := path.Split(name)
		d, err := openDirIn(r, path.Clean(dir))
		if err != nil {
			return err
		}
		defer d.Close()
		_, err = replaceIn(d, base, data, sync)
		return err
	})
	if err != nil {
		return fmt.Errorf("write %s: %w", rel, err)
	}
	return nil
}

// ReplaceIn atomically replaces the file base in the folder d with data;
// durably (the file and the folder synced) when durable. A new file is
// 0644; a replaced one keeps its mode.
func ReplaceIn(d *os.Root, base string, data []byte, durable bool) error {
	var sync syncer
	if durable {
		sync = syncFile
	}
	_, err := replaceIn(d, base, data, sync)
	return err
}

// replaceIn is ReplaceIn syncing with sync (nil: not durable); it returns
// the new file's modification time.
func replaceIn(d *os.Root, base string, data []byte, sync syncer) (time.Time, error) {
	// The temp is made with the mode of the file it replaces, so it needs
	// no chmod of its own unless the umask took bits away.
	perm := os.FileMode(0o644)
	if fi, err := d.Lstat(base); err == nil && fi.Mode().IsRegular() {
		perm = fi.Mode().Perm()
	}
	tmp, mod, err := stageTemp(d, ".", data, time.Time{}, sync, perm)
	if err != nil {
		return time.Time{}, err
	}
	midWrite()
	if err := d.Rename(tmp, base); err != nil {
		d.Remove(tmp)
		return time.Time{}, err
	}
	syncIn(d, sync)
	return mod, nil
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
	rel, _, err := w.ClaimSequencedTime(dir, id, ext, data)
	return rel, err
}

// ClaimSequencedTime is ClaimSequenced also returning the new file's
// modification time, read from the file as it was staged: the caller need
// not walk to it again.
func (w *Workspace) ClaimSequencedTime(dir string, id ID, ext string, data []byte) (string, time.Time, error) {
	var claimed string
	var mod time.Time
	sync := w.fsync()
	err := w.in(dir, func(r *os.Root, name string) error {
		// The folder is opened once, inside the root; every name tried is
		// then one component in it, with no path to walk again.
		d, err := r.OpenRoot(name)
		if err != nil {
			return err
		}
		defer d.Close()
		tmp, staged, err := stageTemp(d, ".", data, time.Time{}, sync, 0o644)
		if err != nil {
			return err
		}
		defer d.Remove(tmp)
		midWrite()
		for n := 0; n <= MaxSequence; n++ {
			name := SequenceName(id, n, ext)
			err := d.Link(tmp, name)
			if err == nil {
				syncIn(d, sync)
				claimed, mod = dir+"/"+name, staged
				return nil
			}
			if !errors.Is(err, os.ErrExist) {
				return fmt.Errorf("%s: %w", name, err)
			}
		}
		return fmt.Errorf("for %s: %w", id, ErrSequenceFull)
	})
	if err != nil {
		return "", time.Time{}, fmt.Errorf("claim in %s: %w", dir, err)
	}
	return claimed, mod, nil
}

// syncIn makes new entries of the folder d durable with sync; best effort
// (not on Windows). A nil sync syncs nothing.
func syncIn(d *os.Root, sync syncer) {
	if sync == nil {
		return
	}
	if f, err := safeopen.OpenDirIn(d, "."); err == nil {
		_ = sync(f)
		f.Close()
	}
}

// Rename moves a workspace file to a new name inside the workspace. It never
// replaces an existing file: if newRel exists the rename fails with
// os.ErrExist, so nothing the agent wrote is lost.
func (w *Workspace) Rename(oldRel, newRel string) error {
	n, err := rootPath(newRel)
	if err != nil {
		return fmt.Errorf("rename %s: %w", oldRel, err)
	}
	err = w.in(oldRel, func(r *os.Root, o string) error {
		// A regular file is hard-linked to its new name and then unlinked:
		// the link fails if the name exists, so two concurrent renames onto
		// one name cannot both succeed (checking first and then renaming
		// can, and loses a file). Folders, symlinks and file systems without
		// links fall back.
		if fi, err := r.Lstat(o); err == nil && fi.Mode().IsRegular() {
			midWrite()
			err := r.Link(o, n)
			if errors.Is(err, os.ErrExist) {
				return fmt.Errorf("to %s: %w", newRel, os.ErrExist)
			}
			if err == nil {
				if err := r.Remove(o); err != nil {
					return err
				}
				if d, err := r.OpenRoot(path.Dir(n)); err == nil {
					syncIn(d, w.fsync())
					d.Close()
				}
				return nil
			}
		}
		if _, err := r.Lstat(n); err == nil {
			return fmt.Errorf("to %s: %w", newRel, os.ErrExist)
		}
		return r.Rename(o, n)
	})
	if err != nil {
		return fmt.Errorf("rename %s: %w", oldRel, w.explain(newRel, err))
	}
	return nil
}

// syncer makes a file's content or a folder's entries durable.
type syncer func(*os.File) error

// syncFile is every fsync of the workspace's writers but those of a
// Workspace with its own Sync: a test counts them.
var syncFile syncer = (*os.File).Sync

// fsync is how w's writers sync: its Sync hook, else syncFile (read at the
// call, so a test's swap of syncFile is seen).
func (w *Workspace) fsync() syncer {
	if w.Sync != nil {
		return w.Sync
	}
	return func(f *os.File) error { return syncFile(f) }
}

// midWrite runs in the middle of each writer, after its folder is opened
// and its temp file staged, before the name is taken: for a test that
// swaps a folder for a link out of the workspace there.
var midWrite = func() {}

// stageTemp writes data to a new dot-named temp file of mode perm in the
// root's folder dir, closed (and synced first with sync, when not nil),
// with mtime set when non-zero, and returns its name in the root and its
// modification time (which a rename or a link keeps). The caller links it
// into place and removes the temp name; readers never see a partial file
// under a real name.
func stageTemp(r *os.Root, dir string, data []byte, mtime time.Time, sync syncer, perm os.FileMode) (string, time.Time, error) {
	var name string
	var f *os.File
	for range 100 {
		name = path.Join(dir, ".stage-"+strconv.FormatUint(uint64(rand.Uint32()), 10))
		var err error
		f, err = r.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
		if err == nil {
			break
		}
		if !errors.Is(err, os.ErrExist) {
			return "", time.Time{}, err
		}
	}
	if f == nil {
		return "", time.Time{}, fmt.Errorf("stage a temp file in %s: every name tried exists", dir)
	}
	_, err := f.Write(data)
	mod := mtime
	if err == nil {
		var fi os.FileInfo
		if fi, err = f.Stat(); err == nil {
			if mtime.IsZero() {
				mod = fi.ModTime()
			}
			if fi.Mode().Perm() != perm { // the umask took bits away
				err = f.Chmod(perm)
			}
		}
	}
	if err == nil && sync != nil {
		err = sync(f)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil && !mtime.IsZero() {
		err = r.Chtimes(name, mtime, mtime)
	}
	if err != nil {
		r.Remove(name)
		return "", time.Time{}, err
	}
	return name, mod, nil
}

// CreateNew writes data to the workspace-relative path rel only if nothing of
// that name exists, creating its folder; otherwise it fails wrapping
// os.ErrExist and writes nothing. The content is staged in a temp file and
// hard-linked into place, so an existing file is never touched and the name
// never holds a partial file. A non-zero mtime is set on the new file
// (migrate keeps the old files' times). For names that are one per heartbeat
// ID (declarations, theme records) and for init and migrate.
func (w *Workspace) CreateNew(rel string, data []byte, mtime time.Time) error {
	sync := w.fsync()
	err := w.in(rel, func(r *os.Root, name string) error {
		if _, err := r.Lstat(name); err == nil {
			return os.ErrExist
		}
		d, err := openDirIn(r, path.Dir(name))
		if err != nil {
			return err
		}
		defer d.Close()
		tmp, _, err := stageTemp(d, ".", data, mtime, sync, 0o644)
		if err != nil {
			return err
		}
		defer d.Remove(tmp)
		midWrite()
		if err := d.Link(tmp, path.Base(name)); err != nil {
			return err
		}
		syncIn(d, sync)
		return nil
	})
	if err != nil {
		if errors.Is(err, os.ErrExist) {
			return fmt.Errorf("create %s: %w", rel, os.ErrExist)
		}
		return fmt.Errorf("create %s: %w", rel, err)
	}
	return nil
}

// openDirIn opens the folder dir of r as a root of its own, creating it
// (and its parents) inside r when it is missing: writers stage and rename
// within the folder they opened, so a folder swapped for a link afterwards
// is not followed.
func openDirIn(r *os.Root, dir string) (*os.Root, error) {
	d, err := r.OpenRoot(dir)
	if err == nil || dir == "." || !errors.Is(err, os.ErrNotExist) {
		return d, err
	}
	if err := r.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	return r.OpenRoot(dir)
}
