//go:build windows

package workspace

import "github.com/google/renameio/v2/maybe"

// atomicWrite falls back to a plain write: renameio has no Windows support.
func atomicWrite(abs string, data []byte) error {
	return maybe.WriteFile(abs, data, 0o644)
}
