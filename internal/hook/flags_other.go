//go:build !unix

package hook

// Elsewhere (mcp-heart for Windows links this package through the checks;
// heart-hook itself is built for unix only) the open flags are plain.
const (
	noFollow = 0
	nonBlock = 0
)
