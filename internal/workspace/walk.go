package workspace

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"

	"github.com/ai-heart/ai-heart/internal/safeopen"
)

// WalkDir walks the folder rel inside the workspace's root, as
// filepath.WalkDir does, handing fn slash paths relative to the workspace.
// Each folder is opened inside the root, without blocking on a FIFO: a
// folder the agent swaps for a link out or a FIFO between the listing that
// named it and its own listing is an error passed to fn, never followed.
// Links below rel are not followed; rel itself may be a link that stays
// inside the workspace.
func (w *Workspace) WalkDir(rel string, fn fs.WalkDirFunc) error {
	fi, err := w.Stat(rel)
	if err != nil {
		err = fn(rel, nil, err)
	} else {
		err = w.walk(path.Clean(filepath.ToSlash(rel)), fs.FileInfoToDirEntry(fi), fn)
	}
	if err == fs.SkipDir || err == fs.SkipAll {
		return nil
	}
	return err
}

func (w *Workspace) walk(rel string, d fs.DirEntry, fn fs.WalkDirFunc) error {
	if err := fn(rel, d, nil); err != nil || !d.IsDir() {
		if err == fs.SkipDir && d.IsDir() {
			err = nil
		}
		return err
	}
	var ents []os.DirEntry
	err := w.in(rel, func(r *os.Root, name string) (err error) {
		ents, err = safeopen.ReadDirIn(r, name) // sorted by name
		return err
	})
	if err != nil {
		if err = fn(rel, d, err); err != nil {
			if err == fs.SkipDir {
				err = nil
			}
			return err
		}
	}
	for _, e := range ents {
		if err := w.walk(path.Join(rel, e.Name()), e, fn); err != nil {
			if err == fs.SkipDir {
				break
			}
			return err
		}
	}
	return nil
}

// OpenAppend opens the regular file at rel for reading and appending,
// created with perm (and its folder) when missing, inside the workspace's
// root: never through a link, never blocking on a FIFO.
func (w *Workspace) OpenAppend(rel string, perm os.FileMode) (f *os.File, err error) {
	err = w.in(rel, func(r *os.Root, name string) error {
		if dir := path.Dir(name); dir != "." {
			if err := r.MkdirAll(dir, 0o755); err != nil {
				return err
			}
		}
		f, err = safeopen.OpenIn(r, name, os.O_RDWR|os.O_APPEND|os.O_CREATE, perm)
		return err
	})
	return f, err
}
