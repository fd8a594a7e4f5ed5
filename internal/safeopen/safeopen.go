// Package safeopen opens files the agent can reach. The agent writes
// anything in its workspace (and a misconfigured state or alerts path may
// sit there too): where a file is expected it may find a FIFO (open(2)
// waits for a writer for ever and hangs the pulse), a device, a link to a
// file of the watchdog's, or a sparse file of gigabytes. Every such open
// goes through Open: it never blocks, never follows a link in the last
// component, takes no controlling terminal, and refuses anything but a
// regular file (OpenDir: a folder). Reads are bounded.
//
// A source-scanning test keeps os.Open, os.OpenFile, os.ReadFile, os.ReadDir,
// os.Create and os.WriteFile out of the rest of the watchdog's, mcp-heart's
// and heart-hook's code, but for the files it names (the operator's own).
package safeopen

import (
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
)

// ErrNotRegular reports a path that is not a regular file (a FIFO, a
// device, a socket, a folder) where one was expected.
var ErrNotRegular = errors.New("not a regular file")

// ErrNotDir reports a path that is not a folder where one was expected.
var ErrNotDir = errors.New("not a folder")

// Open opens the regular file at path with flag (os.O_RDONLY, or
// os.O_WRONLY|os.O_APPEND|os.O_CREATE and the like) and perm. A FIFO, a
// device or a socket is refused without blocking, and so is a symlink as
// the last component (callers that follow links resolve the path first,
// inside the workspace). The file comes back in blocking mode.
func Open(path string, flag int, perm os.FileMode) (*os.File, error) {
	return open(path, flag|oNoFollow, perm, false)
}

// OpenDir opens the folder at path for listing, without blocking if a FIFO
// is in its place. A link to a folder is followed: a folder cannot hang a
// read, and where it may lead is the caller's containment check.
func OpenDir(path string) (*os.File, error) {
	return open(path, os.O_RDONLY|oDirectory, 0, true)
}

// OpenIn is Open for name inside the folder r: no link, ".." or absolute
// name leads out of r (a link inside it is followed), and the file must be
// regular.
func OpenIn(r *os.Root, name string, flag int, perm os.FileMode) (*os.File, error) {
	f, err := r.OpenFile(name, flag|oNoFollow|oNonblock|oNoCTTY, perm)
	if err != nil {
		return nil, err
	}
	return check(f, name, false)
}

func open(path string, flag int, perm os.FileMode, dir bool) (*os.File, error) {
	f, err := os.OpenFile(path, flag|oNonblock|oNoCTTY, perm)
	if err != nil {
		return nil, err
	}
	return check(f, path, dir)
}

// check keeps f when it is what was asked for (a regular file, or a
// folder), in blocking mode; else it closes it.
func check(f *os.File, path string, dir bool) (*os.File, error) {
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	switch {
	case dir && !fi.IsDir():
		f.Close()
		return nil, fmt.Errorf("open %s: %w (%s)", path, ErrNotDir, kind(fi))
	case !dir && !fi.Mode().IsRegular():
		f.Close()
		return nil, fmt.Errorf("open %s: %w (%s)", path, ErrNotRegular, kind(fi))
	}
	if err := blocking(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	return f, nil
}

func kind(fi os.FileInfo) string {
	if fi.IsDir() {
		return "a folder"
	}
	return fi.Mode().Type().String()
}

// ReadHead returns at most max bytes from the start of the regular file at
// path. A longer file is cut at max.
func ReadHead(path string, max int64) ([]byte, error) {
	f, err := Open(path, os.O_RDONLY, 0)
	return head(f, err, max)
}

// ReadHeadIn is ReadHead for name inside the folder r (see OpenIn).
func ReadHeadIn(r *os.Root, name string, max int64) ([]byte, error) {
	f, err := OpenIn(r, name, os.O_RDONLY, 0)
	return head(f, err, max)
}

func head(f *os.File, err error, max int64) ([]byte, error) {
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, max))
}

// ErrTooLarge reports a file longer than its reader's cap, where a part of
// it would not do (it is copied or rewritten whole).
var ErrTooLarge = errors.New("file too large")

// ReadAll returns the whole regular file at path, or an error wrapping
// ErrTooLarge when it is longer than max.
func ReadAll(path string, max int64) ([]byte, error) {
	b, err := ReadHead(path, max+1)
	if err == nil && int64(len(b)) > max {
		return nil, fmt.Errorf("read %s: %w (over %d bytes)", path, ErrTooLarge, max)
	}
	return b, err
}

// ReadTail is ReadHead keeping the last max bytes instead: for files whose
// newest line matters (they are appended to).
func ReadTail(path string, max int64) ([]byte, error) {
	f, err := Open(path, os.O_RDONLY, 0)
	return tail(f, err, max)
}

// ReadTailIn is ReadTail for name inside the folder r (see OpenIn).
func ReadTailIn(r *os.Root, name string, max int64) ([]byte, error) {
	f, err := OpenIn(r, name, os.O_RDONLY, 0)
	return tail(f, err, max)
}

func tail(f *os.File, err error, max int64) ([]byte, error) {
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if off := fi.Size() - max; off > 0 {
		if _, err := f.Seek(off, io.SeekStart); err != nil {
			return nil, err
		}
	}
	return io.ReadAll(io.LimitReader(f, max))
}

// ReadDir is os.ReadDir through OpenDir, sorted by name.
func ReadDir(path string) ([]os.DirEntry, error) {
	return list(OpenDir(path))
}

// OpenDirIn is OpenDir for the folder name inside the folder r: no link,
// ".." or absolute name leads out of r (a link inside it is followed).
func OpenDirIn(r *os.Root, name string) (*os.File, error) {
	f, err := r.OpenFile(name, os.O_RDONLY|oDirectory|oNonblock|oNoCTTY, 0)
	if err != nil {
		return nil, err
	}
	return check(f, name, true)
}

// ReadDirIn is ReadDir for the folder name inside the folder r.
func ReadDirIn(r *os.Root, name string) ([]os.DirEntry, error) {
	return list(OpenDirIn(r, name))
}

func list(f *os.File, err error) ([]os.DirEntry, error) {
	if err != nil {
		return nil, err
	}
	defer f.Close()
	ents, err := f.ReadDir(-1)
	slices.SortFunc(ents, func(a, b os.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return ents, err
}

// Append writes b to the end of the regular file at path, created with perm
// when missing, in one write (a line under PIPE_BUF never interleaves with
// another writer's).
func Append(path string, b []byte, perm os.FileMode) error {
	f, err := Open(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, perm)
	if err != nil {
		return err
	}
	_, err = f.Write(b)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// LockFlag is the open flag for a lock file (gofrs/flock's SetFlag): a FIFO
// or a link planted at a lock's name neither blocks its open nor redirects
// it.
const LockFlag = os.O_CREATE | os.O_RDONLY | oNonblock | oNoFollow | oNoCTTY
