//go:build windows

package workspace

import (
	"os"

	"github.com/google/renameio/v2/maybe"
)

// AtomicWriteFile is a plain write on Windows (renameio has no support).
func AtomicWriteFile(abs string, data []byte, perm os.FileMode) error {
	return maybe.WriteFile(abs, data, perm)
}
