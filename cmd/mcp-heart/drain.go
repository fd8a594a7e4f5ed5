package main

import (
	"bytes"
	"encoding/json"
	"io"
	"sync"
	"time"
)

// drainTimeout bounds how long EOF on stdin waits for replies still owed.
const drainTimeout = 30 * time.Second

// drain makes the end of stdin wait for the replies still owed. mcp-go's
// stdio server cancels the tool calls still queued when its input ends, so a
// client that writes its requests and closes stdin (a pipe, a script) would
// lose the last replies. drain counts the requests read and the replies
// written, and hands the server its EOF only when every request with an ID
// has been answered (or after drainTimeout).
type drain struct {
	in  io.Reader
	out io.Writer

	mu      sync.Mutex
	cond    *sync.Cond
	owed    int
	inLine  []byte // a request line not yet complete
	outLine []byte // a reply line not yet complete
}

func newDrain(in io.Reader, out io.Writer) *drain {
	d := &drain{in: in, out: out}
	d.cond = sync.NewCond(&d.mu)
	return d
}

// message is the part of a JSON-RPC line that tells a request from a reply.
type message struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
}

func (m message) hasID() bool { return len(m.ID) > 0 && string(m.ID) != "null" }

// lines feeds p into buf and calls f for every complete line.
func lines(buf *[]byte, p []byte, f func([]byte)) {
	*buf = append(*buf, p...)
	for {
		i := bytes.IndexByte(*buf, '\n')
		if i < 0 {
			return
		}
		f((*buf)[:i])
		*buf = (*buf)[i+1:]
	}
}

// Read reads stdin, counting requests; at EOF it waits for their replies.
func (d *drain) Read(p []byte) (int, error) {
	n, err := d.in.Read(p)
	d.mu.Lock()
	lines(&d.inLine, p[:n], func(l []byte) {
		var m message
		if json.Unmarshal(l, &m) == nil && m.Method != "" && m.hasID() {
			d.owed++
		}
	})
	d.mu.Unlock()
	if err == io.EOF {
		d.wait()
	}
	return n, err
}

// Write writes stdout, counting replies.
func (d *drain) Write(p []byte) (int, error) {
	n, err := d.out.Write(p)
	d.mu.Lock()
	lines(&d.outLine, p[:n], func(l []byte) {
		var m message
		if json.Unmarshal(l, &m) == nil && m.Method == "" && m.hasID() {
			d.owed--
			d.cond.Broadcast()
		}
	})
	d.mu.Unlock()
	return n, err
}

// wait blocks until no reply is owed, or drainTimeout passes.
func (d *drain) wait() {
	timer := time.AfterFunc(drainTimeout, func() {
		d.mu.Lock()
		d.owed = 0
		d.cond.Broadcast()
		d.mu.Unlock()
	})
	defer timer.Stop()
	d.mu.Lock()
	for d.owed > 0 {
		d.cond.Wait()
	}
	d.mu.Unlock()
}
