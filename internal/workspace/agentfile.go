package workspace

import (
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
)

// The agent writes anything in its workspace, so every file the watchdog
// reads there may be a FIFO (open(2) would wait for a writer for ever and
// hang the pulse), a device, or a sparse file of gigabytes. Files are opened
// without blocking, must be regular, and are read up to a cap.

// Caps on what is read of one agent-written file.
const (
	MaxSmallFile = 64 << 10 // declarations, markers, the pause and budget files, the current ID
	MaxTextFile  = 1 << 20  // activity logs, checkpoints, indexes, the state file
)

// ErrNotRegular reports a workspace path that is not a regular file (a FIFO,
// a device, a socket) where one was expected.
var ErrNotRegular = errors.New("not a regular file")

// ReadAgentFile returns at most max bytes from the start of the regular file
// at abs, without ever blocking on a FIFO. A longer file is cut at max.
func ReadAgentFile(abs string, max int64) ([]byte, error) {
	f, err := openAgentFile(abs)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, max))
}

// ReadAgentFileTail is ReadAgentFile keeping the last max bytes instead: for
// files whose newest line matters (checkpoints are appended to).
func ReadAgentFileTail(abs string, max int64) ([]byte, error) {
	f, err := openAgentFile(abs)
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

func openAgentFile(abs string) (*os.File, error) {
	f, err := os.OpenFile(abs, os.O_RDONLY|oNonblock, 0)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("open %s: %w (%s)", abs, ErrNotRegular, fi.Mode().Type())
	}
	return f, nil
}

// OpenAgentDir opens the folder at abs for listing, without blocking if the
// agent put a FIFO in its place.
func OpenAgentDir(abs string) (*os.File, error) {
	f, err := os.OpenFile(abs, os.O_RDONLY|oNonblock|oDirectory, 0)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !fi.IsDir() {
		f.Close()
		return nil, fmt.Errorf("open %s: not a folder (%s)", abs, fi.Mode().Type())
	}
	return f, nil
}

// ReadAgentDir is os.ReadDir through OpenAgentDir.
func ReadAgentDir(abs string) ([]os.DirEntry, error) {
	f, err := OpenAgentDir(abs)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	ents, err := f.ReadDir(-1)
	slices.SortFunc(ents, func(a, b os.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return ents, err
}
