//go:build !windows

package workspace

import (
	"os"
	"path/filepath"

	"github.com/google/renameio/v2"
)

// atomicWrite writes through renameio with the temp file in the target's own
// folder: renameio's default probes $TMPDIR on every call to see whether it
// shares the file system, which cost more than the write itself on the pulse.
func atomicWrite(abs string, data []byte) error {
	return AtomicWriteFile(abs, data, 0o644)
}

// AtomicWriteFile replaces the file at abs with data, mode perm, so a reader
// sees the old file or the new one, never a part.
func AtomicWriteFile(abs string, data []byte, perm os.FileMode) error {
	return renameio.WriteFile(abs, data, perm, renameio.WithTempDir(filepath.Dir(abs)))
}
