package demo

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// session is the demo agent's MCP session with mcp-heart over stdio:
// JSON-RPC 2.0, one message a line, one request at a time, with the
// initialize handshake every MCP client speaks. The demo needs no more than
// initialize and tools/call; an MCP client library would link an MCP server
// and two JSON-schema compilers into the watchdog binary, whose package
// initialisers every watchdog command (the daemon too) paid at start, in
// time and memory.
type session struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  chan []byte // mcp-heart's stdout, a message a line; closed at its end
	stderr *tail
	next   int
}

// protocolVersion is the newest MCP revision with the initialize handshake.
const protocolVersion = "2025-11-25"

// startSession starts mcp-heart (argv, no shell) and initializes the session.
func startSession(ctx context.Context, bin string, args ...string) (*session, error) {
	cmd := exec.Command(bin, args...)
	s := &session{cmd: cmd, lines: make(chan []byte, 1), stderr: &tail{}}
	cmd.Stderr = s.stderr
	var err error
	if s.stdin, err = cmd.StdinPipe(); err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	go func() {
		defer close(s.lines)
		r := bufio.NewReaderSize(stdout, 64<<10)
		for {
			line, err := r.ReadBytes('\n')
			if len(bytes.TrimSpace(line)) > 0 {
				s.lines <- line
			}
			if err != nil {
				return
			}
		}
	}()
	init := map[string]any{
		"protocolVersion": protocolVersion,
		"clientInfo":      map[string]string{"name": "ai-heart-demo-agent", "version": "1"},
		"capabilities":    map[string]any{},
	}
	if _, err := s.request(ctx, "initialize", init); err != nil {
		s.Close()
		return nil, err
	}
	if err := s.send(map[string]any{"jsonrpc": "2.0", "method": "notifications/initialized"}); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// toolResult is what tools/call returns.
type toolResult struct {
	Content []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"content"`
	Structured any  `json:"structuredContent"`
	IsError    bool `json:"isError"`
}

// text is the result's text contents, joined.
func (r toolResult) text() string {
	var b strings.Builder
	for _, c := range r.Content {
		if c.Type == "text" {
			b.WriteString(c.Text)
		}
	}
	return b.String()
}

// callTool runs one tool.
func (s *session) callTool(ctx context.Context, name string, args map[string]any) (toolResult, error) {
	var res toolResult
	raw, err := s.request(ctx, "tools/call", map[string]any{"name": name, "arguments": args})
	if err != nil {
		return res, err
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		return res, fmt.Errorf("tools/call result: %w", err)
	}
	return res, nil
}

// request sends one request and waits for its response; what else comes
// meanwhile (notifications, the server's own requests) is answered or
// passed over.
func (s *session) request(ctx context.Context, method string, params any) (json.RawMessage, error) {
	s.next++
	id := s.next
	if err := s.send(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params}); err != nil {
		return nil, err
	}
	for {
		var line []byte
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("%s: %w", method, ctx.Err())
		case l, ok := <-s.lines:
			if !ok {
				return nil, fmt.Errorf("%s: mcp-heart ended: %s", method, s.stderr)
			}
			line = l
		}
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Result json.RawMessage `json:"result"`
			Error  *struct {
				Code    int    `json:"code"`
				Message string `json:"message"`
			} `json:"error"`
		}
		if err := json.Unmarshal(line, &m); err != nil {
			return nil, fmt.Errorf("%s: not JSON-RPC from mcp-heart: %.80q", method, line)
		}
		switch {
		case m.Method != "" && len(m.ID) > 0: // a request of the server's: the demo offers nothing
			if err := s.send(map[string]any{"jsonrpc": "2.0", "id": m.ID, "error": map[string]any{"code": -32601, "message": "method not found"}}); err != nil {
				return nil, err
			}
		case m.Method != "" || string(m.ID) != fmt.Sprint(id): // a notification, or not ours
		case m.Error != nil:
			return nil, fmt.Errorf("%s: %s (%d)", method, m.Error.Message, m.Error.Code)
		default:
			return m.Result, nil
		}
	}
}

func (s *session) send(msg any) error {
	b, err := json.Marshal(msg)
	if err != nil {
		return err
	}
	_, err = s.stdin.Write(append(b, '\n'))
	return err
}

// Close ends the session: mcp-heart exits at the end of its input, and is
// killed if it has not within a few seconds.
func (s *session) Close() error {
	s.stdin.Close()
	done := make(chan error, 1)
	go func() { done <- s.cmd.Wait() }()
	select {
	case err := <-done:
		return err
	case <-time.After(5 * time.Second):
		s.cmd.Process.Kill()
		return errors.Join(errors.New("mcp-heart did not exit at the end of its input"), <-done)
	}
}

// tail keeps the last few KB of what is written to it: mcp-heart's log,
// for the message when it ends early.
type tail struct {
	mu sync.Mutex
	b  []byte
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if over := len(t.b) - 2048; over > 0 {
		t.b = append(t.b[:0], t.b[over:]...)
	}
	return len(p), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return strings.TrimSpace(string(t.b))
}
