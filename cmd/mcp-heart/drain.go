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

	// known names the tools served; unknown answers a call of any other
	// tool, by the call's ID, in the agent's words (mcp-go's reply is
	// English and names no fix).
	known   map[string]bool
	unknown func(name string) string

	mu      sync.Mutex
	cond    *sync.Cond
	owed    int
	missing map[string]string // call ID -> the unknown tool it named
	inLine  []byte            // a request line not yet complete
	outLine []byte            // a reply line not yet complete
}

func newDrain(in io.Reader, out io.Writer) *drain {
	d := &drain{in: in, out: out}
	d.cond = sync.NewCond(&d.mu)
	return d
}

// message is the part of a JSON-RPC line that tells a request from a reply,
// and a tool call's name.
type message struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params struct {
		Name string `json:"name"`
	} `json:"params"`
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
			if m.Method == "tools/call" && d.known != nil && !d.known[m.Params.Name] {
				if d.missing == nil {
					d.missing = map[string]string{}
				}
				d.missing[string(m.ID)] = m.Params.Name
			}
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
	if out, ok := d.reword(p); ok {
		if _, err := d.out.Write(out); err != nil {
			return 0, err
		}
		d.mu.Lock()
		d.owed--
		d.cond.Broadcast()
		d.mu.Unlock()
		return len(p), nil
	}
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

// reword returns the error reply p to a call of an unknown tool with its
// message in the agent's words, keeping its code; ok is false for any other
// write. mcp-go writes each reply whole, as one line.
func (d *drain) reword(p []byte) (out []byte, ok bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if len(d.missing) == 0 || len(d.outLine) > 0 || len(p) == 0 || p[len(p)-1] != '\n' || bytes.IndexByte(p, '\n') != len(p)-1 {
		return nil, false
	}
	var reply struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   *struct {
			Code    int             `json:"code"`
			Message string          `json:"message"`
			Data    json.RawMessage `json:"data,omitempty"`
		} `json:"error"`
	}
	if json.Unmarshal(p, &reply) != nil {
		return nil, false
	}
	name, found := d.missing[string(reply.ID)]
	if !found {
		return nil, false
	}
	delete(d.missing, string(reply.ID))
	if reply.Error == nil {
		return nil, false
	}
	reply.Error.Message = d.unknown(name)
	b, err := json.Marshal(reply)
	if err != nil {
		return nil, false
	}
	return append(b, '\n'), true
}
