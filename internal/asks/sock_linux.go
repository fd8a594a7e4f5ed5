package asks

import (
	"net"
	"syscall"
	"time"

	"github.com/ai-heart/ai-heart/internal/asks/ask"
)

// listenUnix binds path, through /proc/self/fd when the path is too long
// for a socket address.
func listenUnix(path string) (*net.UnixListener, error) {
	var ln *net.UnixListener
	err := ask.ViaFolder(path, func(name string) error {
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
	err := ask.ViaFolder(path, func(name string) error {
		var err error
		c, err = net.DialTimeout("unix", name, timeout)
		return err
	})
	if err != nil {
		return nil, err
	}
	return c.(*net.UnixConn), nil
}

// peerCred is the pid and uid of the process at the other end of c.
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
