package web

import (
	"net"
	"net/http"
	"syscall"
	"time"

	"golang.org/x/net/netutil"
)

// DefaultMaxConnections bounds the connections the window serves at once
// (http.max_connections): a page holds one event stream and a request or
// two, Prometheus one.
const DefaultMaxConnections = 64

// Timeouts of the window's server. An event stream is a long response, so
// there is no write timeout; keep-alive connections left idle are closed.
const (
	readHeaderTimeout = 10 * time.Second
	idleTimeout       = 30 * time.Second
)

// Listen binds addr for the window and serves at most max connections at
// once (0: DefaultMaxConnections). Further ones wait in the kernel's accept
// queue, holding no descriptor of this process, so a flood of idle
// connections cannot starve the pulse of descriptors for its state file.
func Listen(addr string, max int) (net.Listener, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	var rl syscall.Rlimit
	_ = syscall.Getrlimit(syscall.RLIMIT_NOFILE, &rl) // unknown: rl.Cur stays 0
	return netutil.LimitListener(ln, connCap(max, rl.Cur)), nil
}

// connCap is the connection cap for a wanted one and the descriptor limit:
// at most half the descriptors, the rest kept for the pulse, the agents and
// MQTT.
func connCap(want int, nofile uint64) int {
	if want <= 0 {
		want = DefaultMaxConnections
	}
	if nofile > 0 && uint64(want) > nofile/2 {
		want = int(nofile / 2)
	}
	return max(want, 1)
}

// NewHTTPServer is the window's server for h, with its timeouts.
func NewHTTPServer(h http.Handler) *http.Server {
	return &http.Server{Handler: h, ReadHeaderTimeout: readHeaderTimeout, IdleTimeout: idleTimeout, MaxHeaderBytes: 64 << 10}
}
