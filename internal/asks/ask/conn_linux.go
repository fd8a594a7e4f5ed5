package ask

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// Supported reports whether questions can be held here: the peers'
// credentials (SO_PEERCRED) are Linux's.
const Supported = true

// maxSunPath is the longest socket path bind and connect take (108 bytes
// with the NUL): a longer one goes through the folder's descriptor.
const maxSunPath = 107

// ViaFolder calls f with a name for path that a socket address can hold:
// path itself, or when too long, the path through an open descriptor of
// its folder (/proc/self/fd/N/NAME), valid while f runs.
func ViaFolder(path string, f func(name string) error) error {
	if len(path) <= maxSunPath {
		return f(path)
	}
	d, err := os.Open(filepath.Dir(path))
	if err != nil {
		return err
	}
	defer d.Close()
	return f(fmt.Sprintf("/proc/self/fd/%d/%s", d.Fd(), filepath.Base(path)))
}

// dial connects to the stream socket at path, without the net package. A
// watchdog too busy to take the connection (its backlog full) is an error
// at once, never a wait.
func dial(path string) (*os.File, error) {
	fd, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC|syscall.SOCK_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	err = ViaFolder(path, func(name string) error { return syscall.Connect(fd, &syscall.SockaddrUnix{Name: name}) })
	if err != nil {
		syscall.Close(fd)
		return nil, err
	}
	return os.NewFile(uintptr(fd), path), nil // non-blocking: the runtime's poller keeps its deadlines
}

// peerUID is the uid of the process that listens at the other end of c.
func peerUID(c *os.File) (int, error) {
	raw, err := c.SyscallConn()
	if err != nil {
		return -1, err
	}
	var cred *syscall.Ucred
	var cerr error
	if err := raw.Control(func(fd uintptr) {
		cred, cerr = syscall.GetsockoptUcred(int(fd), syscall.SOL_SOCKET, syscall.SO_PEERCRED)
	}); err != nil {
		return -1, err
	}
	if cerr != nil {
		return -1, cerr
	}
	return int(cred.Uid), nil
}
