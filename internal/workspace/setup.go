package workspace

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// CreateNew writes data to the workspace-relative path rel only if nothing
// of that name exists, creating its folder. Like ClaimSequenced, the whole
// content is written and synced to a dot-named temp file first and then
// hard-linked into place, so an existing file is never touched (the error
// wraps os.ErrExist) and the name never holds a partial file. A non-zero
// mtime is set on the new file (migrate keeps the old files' times). Used by
// `watchdog init` and `watchdog migrate`.
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
	tmp, err := os.CreateTemp(dir, ".create-*")
	if err != nil {
		return fmt.Errorf("create %s: %w", rel, err)
	}
	tmpName := tmp.Name()
	defer os.Remove(tmpName)
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("create %s: %w", rel, err)
	}
	_ = tmp.Chmod(0o644) // CreateTemp makes 0600; best effort on Windows.
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("create %s: %w", rel, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("create %s: %w", rel, err)
	}
	if !mtime.IsZero() {
		if err := os.Chtimes(tmpName, mtime, mtime); err != nil {
			return fmt.Errorf("create %s: %w", rel, err)
		}
	}
	if err := os.Link(tmpName, abs); err != nil {
		if errors.Is(err, os.ErrExist) {
			return fmt.Errorf("create %s: %w", rel, os.ErrExist)
		}
		return fmt.Errorf("create %s: %w", rel, err)
	}
	syncDir(dir)
	return nil
}
