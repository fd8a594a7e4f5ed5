//go:build windows

package workspace

import (
	"os"

	"github.com/google/renameio/v2/maybe"
)

// atomicWrite falls back to a plain write: renameio has no Windows support.
func atomicWrite(abs string, data []byte) error {
	return AtomicWriteFile(abs, data, 0o644)
}

// AtomicWriteFile is a plain write on Windows (renameio has no support).
func AtomicWriteFile(abs string, data []byte, perm os.FileMode) error {
	return maybe.WriteFile(abs, data, perm)
}
