//go:build !windows

package workspace

import (
	"path/filepath"

	"github.com/google/renameio/v2"
)

// atomicWrite writes through renameio with the temp file in the target's own
// folder: renameio's default probes $TMPDIR on every call to see whether it
// shares the file system, which cost more than the write itself on the pulse.
func atomicWrite(abs string, data []byte) error {
	return renameio.WriteFile(abs, data, 0o644, renameio.WithTempDir(filepath.Dir(abs)))
}
