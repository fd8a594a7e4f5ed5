//go:build !unix

package safeopen

import "os"

// Elsewhere FIFOs cannot take a file's name in a folder, and links are
// Resolve's concern.
const (
	oNonblock  = 0
	oNoFollow  = 0
	oNoCTTY    = 0
	oDirectory = 0
)

func blocking(*os.File) error { return nil }
