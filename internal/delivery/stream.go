package delivery

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"sync"
)

// ErrToolCap reports that a run went past agent.max_tool_calls and was
// ended: its result is discarded like a ghost's, and the breaker counts it.
var ErrToolCap = errors.New("per-wakeup tool-call cap reached")

// streamReader reads a client's --output-format stream-json (one JSON event
// per line, Gemini CLI and Claude Code alike): it counts the tool calls as
// they happen and keeps the final text. Lines that are not JSON are passed
// over; a partial last line is read when the stream ends.
type streamReader struct {
	max    int    // tool calls allowed (0 = no cap)
	onOver func() // called once, at call max+1

	mu     sync.Mutex
	line   []byte
	calls  int
	over   bool
	result string          // the result event's text
	said   strings.Builder // assistant text, when no result event says it
	events int
}

// event is the part of a stream-json line the reader needs. Gemini CLI
// writes {"type":"tool_use",...}, {"type":"message","role":"assistant",
// "content":"..."} and {"type":"result",...}; Claude Code writes
// {"type":"assistant","message":{"content":[{"type":"tool_use"},...]}} and
// {"type":"result","result":"..."}.
type event struct {
	Type     string          `json:"type"`
	Role     string          `json:"role"`
	Content  json.RawMessage `json:"content"`
	Result   json.RawMessage `json:"result"`
	Response string          `json:"response"`
	Message  *struct {
		Content []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
	} `json:"message"`
}

func (s *streamReader) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.line = append(s.line, p...)
	for {
		i := bytes.IndexByte(s.line, '\n')
		if i < 0 {
			break
		}
		s.take(s.line[:i])
		s.line = s.line[i+1:]
	}
	if len(s.line) > MaxReply { // a runaway line: drop it, keep counting
		s.line = s.line[:0]
	}
	return len(p), nil
}

// finish reads a last line without its newline.
func (s *streamReader) finish() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(bytes.TrimSpace(s.line)) > 0 {
		s.take(s.line)
	}
	s.line = nil
}

func (s *streamReader) take(l []byte) {
	var ev event
	if json.Unmarshal(bytes.TrimSpace(l), &ev) != nil {
		return
	}
	s.events++
	switch ev.Type {
	case "tool_use":
		s.call()
	case "assistant":
		if ev.Message != nil {
			for _, c := range ev.Message.Content {
				switch c.Type {
				case "tool_use":
					s.call()
				case "text":
					s.said.WriteString(c.Text)
				}
			}
		}
	case "message":
		var text string
		if ev.Role == "assistant" && json.Unmarshal(ev.Content, &text) == nil {
			s.said.WriteString(text)
		}
	case "result":
		var text string
		if json.Unmarshal(ev.Result, &text) == nil && text != "" {
			s.result = text
		} else if ev.Response != "" {
			s.result = ev.Response
		}
	}
}

func (s *streamReader) call() {
	s.calls++
	if s.max > 0 && s.calls > s.max && !s.over {
		s.over = true
		if s.onOver != nil {
			go s.onOver() // never kill from inside the child's pipe write
		}
	}
}

// reply is the run's final text: the result event's, else what the
// assistant said.
func (s *streamReader) reply() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.result != "" {
		return s.result
	}
	return strings.TrimSpace(s.said.String())
}

func (s *streamReader) toolCalls() (int, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.calls, s.over
}
