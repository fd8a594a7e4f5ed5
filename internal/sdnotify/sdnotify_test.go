package sdnotify

import (
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// listen opens a unixgram socket like systemd's notify socket and points
// NOTIFY_SOCKET at it. abstract uses Linux's abstract namespace ("@name").
func listen(t *testing.T, abstract bool) *net.UnixConn {
	t.Helper()
	name := filepath.Join(t.TempDir(), "notify.sock")
	if abstract {
		name = fmt.Sprintf("@ai-heart-sdnotify-test-%d-%d", os.Getpid(), time.Now().UnixNano())
	}
	conn, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: name, Net: "unixgram"})
	if err != nil {
		t.Fatalf("listen on %s: %v", name, err)
	}
	t.Cleanup(func() { conn.Close() })
	t.Setenv("NOTIFY_SOCKET", name)
	return conn
}

func receive(t *testing.T, conn *net.UnixConn) string {
	t.Helper()
	buf := make([]byte, 4096)
	_ = conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	n, err := conn.Read(buf)
	if err != nil {
		t.Fatalf("read notification: %v", err)
	}
	return string(buf[:n])
}

func TestNotify(t *testing.T) {
	var n Notifier
	tests := []struct {
		name string
		send func() error
		want string
	}{
		{name: "ready", send: Ready, want: "READY=1"},
		{name: "watchdog", send: Watchdog, want: "WATCHDOG=1"},
		{name: "stopping", send: Stopping, want: "STOPPING=1"},
		{name: "notifier ready", send: n.Ready, want: "READY=1"},
		{name: "notifier watchdog", send: n.Watchdog, want: "WATCHDOG=1"},
		{name: "notifier stopping", send: n.Stopping, want: "STOPPING=1"},
		{name: "status", send: func() error { return Status("pulse 20250101120000 ok") }, want: "STATUS=pulse 20250101120000 ok"},
	}
	for _, abstract := range []bool{false, true} {
		for _, tt := range tests {
			name := tt.name
			if abstract {
				name += " abstract socket"
			}
			t.Run(name, func(t *testing.T) {
				if abstract && runtime.GOOS != "linux" {
					t.Skip("abstract sockets are Linux only")
				}
				conn := listen(t, abstract)
				if err := tt.send(); err != nil {
					t.Fatalf("send: %v", err)
				}
				if got := receive(t, conn); got != tt.want {
					t.Errorf("systemd received %q, want %q", got, tt.want)
				}
				if os.Getenv("NOTIFY_SOCKET") == "" {
					t.Error("NOTIFY_SOCKET was unset; later pulses could not notify")
				}
			})
		}
	}
}

func TestReloading(t *testing.T) {
	conn := listen(t, false)
	if err := Reloading(); err != nil {
		t.Fatal(err)
	}
	got := receive(t, conn)
	if !strings.HasPrefix(got, "RELOADING=1\nMONOTONIC_USEC=") {
		t.Errorf("systemd received %q, want RELOADING=1 and MONOTONIC_USEC", got)
	}
}

func TestNoSocketIsNoOp(t *testing.T) {
	t.Setenv("NOTIFY_SOCKET", "")
	for _, f := range []func() error{Ready, Watchdog, Stopping, Reloading} {
		if err := f(); err != nil {
			t.Errorf("notify without NOTIFY_SOCKET = %v, want nil", err)
		}
	}
}

func TestNoListenerIsError(t *testing.T) {
	t.Setenv("NOTIFY_SOCKET", filepath.Join(t.TempDir(), "gone.sock"))
	err := Watchdog()
	if err == nil || !errors.Is(err, os.ErrNotExist) || !strings.Contains(err.Error(), "WATCHDOG=1") {
		t.Errorf("Watchdog() with a missing socket = %v, want an error naming WATCHDOG=1", err)
	}
}

func TestWatchdogInterval(t *testing.T) {
	tests := []struct {
		name    string
		usec    string
		pid     string
		want    time.Duration
		wantErr bool
	}{
		{name: "not under a watchdog", want: 0},
		{name: "for this process", usec: "180000000", pid: fmt.Sprint(os.Getpid()), want: 180 * time.Second},
		{name: "no pid given", usec: "90000000", want: 90 * time.Second},
		{name: "for another process", usec: "180000000", pid: fmt.Sprint(os.Getpid() + 1), want: 0},
		{name: "garbage", usec: "soon", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("WATCHDOG_USEC", tt.usec)
			t.Setenv("WATCHDOG_PID", tt.pid)
			got, err := WatchdogInterval()
			if (err != nil) != tt.wantErr || got != tt.want {
				t.Errorf("WatchdogInterval() = %s, %v; want %s, error %v", got, err, tt.want, tt.wantErr)
			}
		})
	}
}
