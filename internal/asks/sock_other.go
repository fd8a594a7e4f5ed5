//go:build !linux

package asks

import (
	"errors"
	"net"
	"time"
)

var errUnsupported = errors.New("answering from afar needs Linux (the socket's peer credentials)")

func listenUnix(string) (*net.UnixListener, error) { return nil, errUnsupported }

func dialUnix(string, time.Duration) (*net.UnixConn, error) { return nil, errUnsupported }

func peerCred(*net.UnixConn) (int, int, error) { return -1, -1, errUnsupported }
