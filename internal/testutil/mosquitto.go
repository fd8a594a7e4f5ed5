package testutil

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// MosquittoBinary is Debian's broker; tests that need it skip without it.
const MosquittoBinary = "/usr/sbin/mosquitto"

// Broker is a Mosquitto started for one test on a free loopback port, with
// a generated config and no persistence (a restart forgets retained
// messages, as a crashed broker without a database would).
type Broker struct {
	URL  string // tcp://127.0.0.1:PORT
	Addr string
	t    testing.TB
	bin  string
	dir  string
	conf string
	cmd  *exec.Cmd
	exit chan struct{}
}

// Mosquitto starts a broker, or skips the test when mosquitto is absent.
// users maps user names to passwords; empty means anonymous access. The
// broker is stopped when the test ends.
func Mosquitto(t testing.TB, users map[string]string) *Broker {
	t.Helper()
	bin := MosquittoBinary
	if _, err := os.Stat(bin); err != nil {
		p, err := exec.LookPath("mosquitto")
		if err != nil {
			t.Skip("mosquitto is not installed (Debian: apt-get install mosquitto)")
		}
		bin = p
	}
	b := &Broker{t: t, dir: t.TempDir()}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	b.Addr = ln.Addr().String()
	ln.Close()
	b.URL = "tcp://" + b.Addr
	_, port, _ := net.SplitHostPort(b.Addr)
	conf := []string{
		"listener " + port + " 127.0.0.1",
		"persistence false",
		"log_dest stderr",
		"log_type error",
		"max_keepalive 65535",
	}
	if os.Geteuid() == 0 {
		conf = append(conf, "user root") // no drop to the mosquitto user, who cannot read the temp dir
	}
	if len(users) == 0 {
		conf = append(conf, "allow_anonymous true")
	} else {
		pw := filepath.Join(b.dir, "passwd")
		var lines []string
		for u, p := range users {
			lines = append(lines, u+":"+p)
		}
		if err := os.WriteFile(pw, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		// mosquitto_passwd -U hashes the plain-text file in place.
		if out, err := exec.Command("mosquitto_passwd", "-U", pw).CombinedOutput(); err != nil {
			t.Skipf("mosquitto_passwd -U: %v: %s", err, out)
		}
		conf = append(conf, "allow_anonymous false", "password_file "+pw)
	}
	b.conf = filepath.Join(b.dir, "mosquitto.conf")
	if err := os.WriteFile(b.conf, []byte(strings.Join(conf, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	b.bin = bin
	b.start()
	t.Cleanup(b.Stop)
	return b
}

func (b *Broker) start() {
	b.t.Helper()
	cmd := exec.Command(b.bin, "-c", b.conf)
	cmd.Stderr = &prefixWriter{t: b.t}
	if err := cmd.Start(); err != nil {
		b.t.Fatalf("start mosquitto: %v", err)
	}
	b.cmd, b.exit = cmd, make(chan struct{})
	go func(exit chan struct{}) { cmd.Wait(); close(exit) }(b.exit)
	deadline := time.Now().Add(10 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", b.Addr, time.Second)
		if err == nil {
			c.Close()
			return
		}
		select {
		case <-b.exit:
			b.t.Fatalf("mosquitto exited at start (port %s taken?)", b.Addr)
		default:
		}
		if time.Now().After(deadline) {
			b.t.Fatalf("mosquitto not listening on %s after 10s", b.Addr)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Stop ends the broker (SIGTERM) and waits for it. Mosquitto 2.0 can miss
// a SIGTERM that lands just before it waits with no timeout (seen: a broker
// stopped right after its start waited for ever), so SIGKILL follows after
// Grace.
func (b *Broker) Stop() {
	if b.cmd == nil {
		return
	}
	b.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-b.exit:
	case <-time.After(Grace):
		b.cmd.Process.Kill()
		<-b.exit
	}
	b.cmd = nil
}

// Restart starts the stopped broker again on the same port.
func (b *Broker) Restart() {
	b.t.Helper()
	b.start()
}

// PID is the broker's process ID (for CPU measurements).
func (b *Broker) PID() int { return b.cmd.Process.Pid }

// prefixWriter sends the broker's log lines to the test log.
type prefixWriter struct{ t testing.TB }

func (w *prefixWriter) Write(p []byte) (int, error) {
	w.t.Logf("mosquitto: %s", strings.TrimSpace(string(p)))
	return len(p), nil
}
