// Package statefile keeps the watchdog's own small JSON files (its state,
// the daily cap, the circuit breaker, the cost ledger, the pause and the
// last resume, the live exec run's record) in the agent's state
// folder (config state_dir), outside the workspace the agent writes. Every
// one of them is read and written here, one way:
//
//   - read without blocking (a FIFO costs nothing), a regular file only, up
//     to a size cap;
//   - a file that is missing is no error (Read reports found false); one that
//     cannot be read or parsed, whatever the reason (not a regular file, too
//     big, not JSON), wraps ErrCorrupt, and the caller starts from a usable
//     value it declares (the daily cap and the cost ledger count the day as
//     spent: a bad file never grants a fresh budget);
//   - written atomically (renameio: a reader sees the old file or the new
//     one), mode 0600, its folder created 0700.
package statefile

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/ai-heart/ai-heart/internal/workspace"
)

// MaxFile bounds what is read of one state file: the ledger, the largest,
// keeps 33 days of a few sources.
const MaxFile = workspace.MaxTextFile

// DirMode is the state folder's mode: the watchdog's user alone.
const DirMode = 0o700

// FileMode is a state file's mode.
const FileMode = 0o600

// ErrCorrupt reports a state file that exists but could not be read or
// parsed. The value the caller reads into must then be reset by the caller.
var ErrCorrupt = errors.New("corrupt state file")

// Read decodes the file at path into v. found is false, and err nil, when
// there is no file: v is left untouched. Any other failure wraps ErrCorrupt.
func Read(path string, v any) (found bool, err error) {
	b, err := workspace.ReadAgentFile(path, MaxFile+1)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return false, nil
	case err != nil:
		return true, fmt.Errorf("read %s: %w: %v", path, ErrCorrupt, err)
	case len(b) > MaxFile:
		return true, fmt.Errorf("read %s: %w: over %d bytes", path, ErrCorrupt, MaxFile)
	}
	if err := json.Unmarshal(b, v); err != nil {
		return true, fmt.Errorf("read %s: %w: %v", path, ErrCorrupt, err)
	}
	return true, nil
}

// Write atomically replaces the file at path with v as indented JSON, mode
// 0600, creating its folder (0700) when needed.
func Write(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("encode %s: %w", path, err)
	}
	return WriteEncoded(path, append(b, '\n'))
}

// WriteEncoded is Write for a value already encoded as b.
func WriteEncoded(path string, b []byte) error {
	if err := EnsureDir(filepath.Dir(path)); err != nil {
		return err
	}
	if err := workspace.AtomicWriteFile(path, b, FileMode); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// WriteEncodedNoSync is WriteEncoded without the fsync, for a file
// rewritten whole every pulse: still atomic (a reader sees the old file or
// the new one), but a power cut may leave an older copy, or, on a file
// system that does not flush a file renamed over another (ext4 and btrfs
// do), an unreadable one. A file that is missing or not a regular file is
// written as WriteEncoded does; one that exists keeps its mode, as there.
func WriteEncodedNoSync(path string, b []byte) error {
	if fi, err := os.Lstat(path); err != nil || !fi.Mode().IsRegular() {
		return WriteEncoded(path, b)
	}
	d, err := os.OpenRoot(filepath.Dir(path))
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	defer d.Close()
	if err := workspace.ReplaceIn(d, filepath.Base(path), b, false); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// EnsureDir creates the folder dir (0700) and its missing parents (0700
// too: the default state_dir's parents are the user's own).
func EnsureDir(dir string) error {
	if dir == "" {
		return errors.New("no state folder (state_dir)")
	}
	if err := os.MkdirAll(dir, DirMode); err != nil {
		return fmt.Errorf("state folder: %w", err)
	}
	return nil
}
