//go:build !linux

package ask

import (
	"errors"
	"os"
)

// Supported reports whether questions can be held here: the peers'
// credentials (SO_PEERCRED) are Linux's, so elsewhere nothing is held and
// the client's own dialog stands.
const Supported = false

var errUnsupported = errors.New("answering from afar needs Linux (the socket's peer credentials)")

// ViaFolder calls f with path.
func ViaFolder(path string, f func(name string) error) error { return f(path) }

func dial(string) (*os.File, error) { return nil, errUnsupported }

func peerUID(*os.File) (int, error) { return -1, errUnsupported }
