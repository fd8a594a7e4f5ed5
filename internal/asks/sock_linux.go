package asks

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"syscall"
	"time"
)

// Supported reports whether questions can be held here: the peers'
// credentials (SO_PEERCRED) are Linux's.
const Supported = true

// maxSunPath is the longest socket path bind and connect take (108 bytes
// with the NUL): a longer one goes through the folder's descriptor.
const maxSunPath = 107

// listenUnix binds path, through /proc/self/fd when the path is too long
// for a socket address.
func listenUnix(path string) (*net.UnixListener, error) {
	var ln *net.UnixListener
	err := viaFolder(path, func(name string) error {
		var err error
		ln, err = net.ListenUnix("unix", &net.UnixAddr{Name: name, Net: "unix"})
		return err
	})
	if err != nil {
		return nil, err
	}
	ln.SetUnlinkOnClose(false) // its name may be a /proc path gone stale: Close removes path
	return ln, nil
}

// dialUnix connects to path, within timeout.
func dialUnix(path string, timeout time.Duration) (*net.UnixConn, error) {
	var c net.Conn
	err := viaFolder(path, func(name string) error {
		var err error
		c, err = net.DialTimeout("unix", name, timeout)
		return err
	})
	if err != nil {
		return nil, err
	}
	return c.(*net.UnixConn), nil
}

func viaFolder(path string, f func(name string) error) error {
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

// peerCred is the pid and uid of the process at the other end of c (for a
// listener: the process that listened).
func peerCred(c *net.UnixConn) (pid, uid int, err error) {
	raw, err := c.SyscallConn()
	if err != nil {
		return -1, -1, err
	}
	var cred *syscall.Ucred
	var cerr error
	if err := raw.Control(func(fd uintptr) {
		cred, cerr = syscall.GetsockoptUcred(int(fd), syscall.SOL_SOCKET, syscall.SO_PEERCRED)
	}); err != nil {
		return -1, -1, err
	}
	if cerr != nil {
		return -1, -1, cerr
	}
	return int(cred.Pid), int(cred.Uid), nil
}
