package web

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"sync"
	"testing"
	"time"
)

// Idle keep-alive connections once held a descriptor each, with no bound:
// 20,000 left the pulse unable to write its state ("too many open files").
// Here 20 clients each make a request and then hold the connection idle;
// with a cap of 4 the server never has more than 4 open, closes idle ones
// itself, and so serves all 20 in turn.
func TestListenCapsIdleConnections(t *testing.T) {
	const limit, clients = 4, 20
	hs := NewHTTPServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok") }))
	if d := hs.IdleTimeout; d < time.Second || d > 5*time.Minute {
		t.Fatalf("IdleTimeout = %s, want a bound between 1s and 5m", d)
	}
	if hs.ReadHeaderTimeout <= 0 {
		t.Fatalf("ReadHeaderTimeout = %s, want a bound", hs.ReadHeaderTimeout)
	}
	hs.IdleTimeout = 200 * time.Millisecond // the test's own, to finish soon
	ln, err := Listen("127.0.0.1:0", limit)
	if err != nil {
		t.Fatal(err)
	}
	// Open connections are counted from the capped listener's Accept to
	// the moment Close is called, which is before Close frees the slot:
	// http.Server's ConnState says "closed" only after the slot is free,
	// so counting with it saw a next connection before the last one left.
	cl := &countingListener{Listener: ln}
	ln = cl
	go hs.Serve(ln)
	t.Cleanup(func() { hs.Close() })

	errs := make(chan error, clients)
	for range clients {
		go func() {
			c, err := net.Dial("tcp", ln.Addr().String())
			if err != nil {
				errs <- err
				return
			}
			defer c.Close()
			c.SetDeadline(time.Now().Add(30 * time.Second))
			if _, err := io.WriteString(c, "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"); err != nil {
				errs <- err
				return
			}
			rd := bufio.NewReader(c)
			resp, err := http.ReadResponse(rd, nil)
			if err != nil {
				errs <- err
				return
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			_, err = rd.ReadByte() // idle: wait for the server to close it
			if err == io.EOF {
				err = nil
			}
			errs <- err
		}()
	}
	deadline := time.After(30 * time.Second)
	for i := range clients {
		select {
		case err := <-errs:
			if err != nil {
				t.Fatalf("client: %v", err)
			}
		case <-deadline:
			t.Fatalf("%d of %d clients served and closed within 30s", i, clients)
		}
	}
	cl.mu.Lock()
	defer cl.mu.Unlock()
	if cl.peak > limit {
		t.Errorf("%d connections open at once, want at most %d", cl.peak, limit)
	}
}

// countingListener counts the connections accepted and not yet closed.
type countingListener struct {
	net.Listener
	mu         sync.Mutex
	open, peak int
}

func (l *countingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	l.mu.Lock()
	l.open++
	l.peak = max(l.peak, l.open)
	l.mu.Unlock()
	return &countedConn{Conn: c, l: l}, nil
}

type countedConn struct {
	net.Conn
	l    *countingListener
	once sync.Once
}

func (c *countedConn) Close() error {
	c.once.Do(func() {
		c.l.mu.Lock()
		c.l.open--
		c.l.mu.Unlock()
	})
	return c.Conn.Close()
}

// The cap leaves half the process's descriptors to the pulse, the agents
// and MQTT, whatever the config asks for.
func TestConnCap(t *testing.T) {
	tests := []struct {
		name         string
		want         int
		nofile, cap_ uint64
	}{
		{"default", 0, 1 << 20, DefaultMaxConnections},
		{"asked", 500, 1 << 20, 500},
		{"asked beyond half the descriptors", 1000, 1024, 512},
		{"default beyond half the descriptors", 0, 64, 32},
		{"unknown limit", 100, 0, 100},
		{"tiny limit", 0, 1, 1},
	}
	for _, tt := range tests {
		if got := connCap(tt.want, tt.nofile); uint64(got) != tt.cap_ {
			t.Errorf("%s: connCap(%d, %d) = %d, want %d", tt.name, tt.want, tt.nofile, got, tt.cap_)
		}
	}
}
