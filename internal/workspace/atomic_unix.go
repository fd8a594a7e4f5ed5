//go:build !windows

package workspace

import (
	"os"
	"path/filepath"

	"github.com/google/renameio/v2"
)

// AtomicWriteFile replaces the file at abs with data, mode perm, so a reader
// sees the old file or the new one, never a part. It writes by path: for the
// watchdog's own state folder, not the workspace (which WriteFile writes
// through its root). The temp file is in the target's own folder:
// renameio's default probes $TMPDIR on every call to see whether it shares
// the file system, which cost more than the write itself on the pulse.
func AtomicWriteFile(abs string, data []byte, perm os.FileMode) error {
	return renameio.WriteFile(abs, data, perm, renameio.WithTempDir(filepath.Dir(abs)))
}
