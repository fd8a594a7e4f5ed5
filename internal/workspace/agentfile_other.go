//go:build !unix

package workspace

// Elsewhere FIFOs cannot take a file's name in a folder.
const (
	oNonblock  = 0
	oDirectory = 0
)
