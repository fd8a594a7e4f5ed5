package workspace

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// ErrOutside reports a path that would leave the workspace (through "..", an
// absolute path or a symlink).
var ErrOutside = errors.New("path leaves the workspace")

// OutsideError is a path whose existing part leads out of the workspace
// through a symlink: Target is where it really is. It is ErrOutside, with
// what a reply needs to say so in the agent's own words.
type OutsideError struct{ Rel, Target string }

func (e *OutsideError) Error() string {
	return fmt.Sprintf("resolve %q: %v: it points to %s", e.Rel, ErrOutside, e.Target)
}

func (e *OutsideError) Unwrap() error { return ErrOutside }

// Resolve maps a slash-separated workspace-relative path to an absolute one
// and refuses any that would leave the workspace: absolute paths, "..", and
// symlinks (in any existing ancestor) that point outside the root. It reads
// by path, so what it says may change before a use: it only puts a refusal
// into words; the reads and writes go through the workspace's root.
func (w *Workspace) Resolve(rel string) (string, error) {
	slash, err := rootPath(rel)
	if err != nil {
		return "", err
	}
	abs := w.Path(slash)
	root, err := filepath.EvalSymlinks(w.Root)
	if err != nil {
		return "", fmt.Errorf("resolve %q: workspace root: %w", rel, err)
	}
	// Follow symlinks in the deepest part of the path that exists.
	existing, rest := abs, ""
	for {
		if _, err := os.Lstat(existing); err == nil {
			break
		}
		parent := filepath.Dir(existing)
		if parent == existing {
			break
		}
		rest = filepath.Join(filepath.Base(existing), rest)
		existing = parent
	}
	real, err := filepath.EvalSymlinks(existing)
	if err != nil {
		return "", fmt.Errorf("resolve %q: %w", rel, err)
	}
	if !within(root, real) {
		return "", &OutsideError{Rel: rel, Target: real}
	}
	return filepath.Join(real, rest), nil
}

func isAbs(p string) bool { return filepath.IsAbs(p) || filepath.VolumeName(p) != "" }

// within reports whether path is root or below it.
func within(root, path string) bool {
	r, err := filepath.Rel(root, path)
	if err != nil {
		return false
	}
	return r == "." || (r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator)))
}
