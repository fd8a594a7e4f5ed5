package workspace

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"strings"

	"github.com/ai-heart/ai-heart/internal/safeopen"
)

// Every read and write of the workspace goes through one os.Root, opened on
// first use and held for the Workspace's life. The kernel resolves each
// name component by component inside the folder the root was opened on, so
// no "..", no link, and no folder the agent swaps for a link in the middle of
// a call carries a read or a write out of the workspace. Resolve only puts a
// refusal into words (where the link leads); it decides nothing.

// dir returns the workspace's root, opening it on first use. A workspace
// that does not exist yet is opened by the first call after it does.
func (w *Workspace) dir() (*os.Root, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.root != nil {
		return w.root, nil
	}
	r, err := os.OpenRoot(w.Root)
	if err != nil {
		return nil, err
	}
	w.root = r
	return r, nil
}

// RootInfo is the folder the workspace's root is open on (opening it on
// first use): the one every later read and write lands in, whatever is
// renamed or linked at its path since. Root's init compares it with the
// folder it checked.
func (w *Workspace) RootInfo() (fs.FileInfo, error) {
	r, err := w.dir()
	if err != nil {
		return nil, err
	}
	return r.Stat(".")
}

// rootPath is a workspace-relative path as a name in the root. The empty
// path, a NUL byte, an absolute path and ".." are refused as ErrOutside; a
// link out is refused by the root when the name is used.
func rootPath(rel string) (string, error) {
	if rel == "" {
		return "", fmt.Errorf("resolve: %w: empty path", ErrOutside)
	}
	if strings.ContainsRune(rel, 0) {
		return "", fmt.Errorf("resolve %q: %w: NUL byte", rel, ErrOutside)
	}
	slash := strings.ReplaceAll(rel, `\`, "/")
	if strings.HasPrefix(slash, "/") || isAbs(rel) {
		return "", fmt.Errorf("resolve %q: %w: absolute path", rel, ErrOutside)
	}
	for _, seg := range strings.Split(slash, "/") {
		if seg == ".." {
			//lint:ignore ST1005 ".." is the path element refused, not punctuation
			return "", fmt.Errorf("resolve %q: %w: contains ..", rel, ErrOutside)
		}
	}
	return path.Clean(slash), nil
}

// in runs fn on rel's name in the root. A refusal because a link leads out
// is told as ErrOutside, with where it leads.
func (w *Workspace) in(rel string, fn func(r *os.Root, name string) error) error {
	name, err := rootPath(rel)
	if err != nil {
		return err
	}
	r, err := w.dir()
	if err != nil {
		return err
	}
	if err := fn(r, name); err != nil {
		return w.explain(rel, err)
	}
	return nil
}

// explain turns the root's refusal of a name that leads out into the
// OutsideError a reply words; any other error is returned as it is.
func (w *Workspace) explain(rel string, err error) error {
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrExist) {
		return err
	}
	if _, rerr := w.Resolve(rel); errors.Is(rerr, ErrOutside) {
		return rerr
	}
	return err
}

// ReadFile returns at most max bytes from the start of the regular file at
// rel, without ever blocking on a FIFO (see ReadAgentFile).
func (w *Workspace) ReadFile(rel string, max int64) (b []byte, err error) {
	err = w.in(rel, func(r *os.Root, name string) error {
		b, err = safeopen.ReadHeadIn(r, name, max)
		return err
	})
	return b, err
}

// ReadFileTail is ReadFile keeping the last max bytes.
func (w *Workspace) ReadFileTail(rel string, max int64) (b []byte, err error) {
	err = w.in(rel, func(r *os.Root, name string) error {
		b, err = safeopen.ReadTailIn(r, name, max)
		return err
	})
	return b, err
}

// ReadAll returns the whole regular file at rel, or an error wrapping
// safeopen.ErrTooLarge when it is longer than max.
func (w *Workspace) ReadAll(rel string, max int64) ([]byte, error) {
	b, err := w.ReadFile(rel, max+1)
	if err == nil && int64(len(b)) > max {
		return nil, fmt.Errorf("read %s: %w (over %d bytes)", rel, safeopen.ErrTooLarge, max)
	}
	return b, err
}

// ReadDir lists the folder at rel, sorted by name, without blocking if a
// FIFO is in its place.
func (w *Workspace) ReadDir(rel string) (ents []os.DirEntry, err error) {
	err = w.in(rel, func(r *os.Root, name string) error {
		ents, err = safeopen.ReadDirIn(r, name)
		return err
	})
	return ents, err
}

// OpenDir opens the folder at rel for listing in parts.
func (w *Workspace) OpenDir(rel string) (f *os.File, err error) {
	err = w.in(rel, func(r *os.Root, name string) error {
		f, err = safeopen.OpenDirIn(r, name)
		return err
	})
	return f, err
}

// Stat is os.Stat of rel inside the workspace (a link inside it is
// followed, one out of it is refused).
func (w *Workspace) Stat(rel string) (fi os.FileInfo, err error) {
	err = w.in(rel, func(r *os.Root, name string) error {
		fi, err = r.Stat(name)
		return err
	})
	return fi, err
}

// Lstat is os.Lstat of rel inside the workspace.
func (w *Workspace) Lstat(rel string) (fi os.FileInfo, err error) {
	err = w.in(rel, func(r *os.Root, name string) error {
		fi, err = r.Lstat(name)
		return err
	})
	return fi, err
}

// Remove removes the file or empty folder at rel inside the workspace (a
// link is removed, never what it points to).
func (w *Workspace) Remove(rel string) error {
	return w.in(rel, func(r *os.Root, name string) error { return r.Remove(name) })
}

// MkdirAll creates the folder rel and its parents inside the workspace.
func (w *Workspace) MkdirAll(rel string) error {
	return w.in(rel, func(r *os.Root, name string) error { return r.MkdirAll(name, 0o755) })
}

// lock takes the cross-process lock file name in stats/ (created, inside
// the workspace, when missing) and returns its release.
func (w *Workspace) lock(name string) (func(), error) {
	var f *os.File
	err := w.in(StatsDir, func(r *os.Root, dir string) error {
		var err error
		f, err = safeopen.OpenIn(r, dir+"/"+name, os.O_CREATE|os.O_RDONLY, 0o600)
		if !errors.Is(err, os.ErrNotExist) {
			return err
		}
		if err := r.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		f, err = safeopen.OpenIn(r, dir+"/"+name, os.O_CREATE|os.O_RDONLY, 0o600)
		return err
	})
	if err != nil {
		return nil, err
	}
	if err := lockFile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() { f.Close() }, nil // closing the file releases its lock
}
