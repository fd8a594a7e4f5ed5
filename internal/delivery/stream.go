package delivery

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/ai-heart/ai-heart/internal/clients"
	"github.com/ai-heart/ai-heart/internal/clients/client"
	"github.com/ai-heart/ai-heart/internal/cost"
)

// ErrToolCap reports that a run went past agent.max_tool_calls and was
// ended: its result is discarded like a ghost's, and the breaker counts it.
var ErrToolCap = errors.New("per-wakeup tool-call cap reached")

// ErrRefused reports a run whose every tool call the client refused (not
// allowed by its permission settings): it did nothing, so it is no answer.
var ErrRefused = errors.New("the client refused every tool call")

// ErrTokenCap reports that a run's usage went past budget.per_wakeup_tokens
// and it was ended: discarded like a tool-capped run, and counted as capped.
var ErrTokenCap = errors.New("per-wakeup token cap reached")

// streamReader reads a client's --output-format stream-json (one JSON event
// per line, Gemini CLI, Claude Code and Codex alike; each client's adapter
// reads its own events): it counts the tool calls as they happen and keeps
// the final text. Lines that are not JSON are passed
// over; a partial last line is read when the stream ends.
type streamReader struct {
	max    int    // tool calls allowed (0 = no cap)
	onOver func() // called once, at call max+1
	// maxTokens ends the run once its running usage passes it (0 = no cap);
	// onTokens is called once when it does.
	maxTokens int64
	onTokens  func()
	// onRetry hears each retry the client announces, with its wait.
	onRetry func(wait time.Duration)

	mu     sync.Mutex
	line   []byte
	calls  int
	over   bool
	result string          // the result event's text
	said   strings.Builder // assistant text, when no result event says it
	events int

	model        string                // Claude Code's init event's model
	running      map[string]runningMsg // Claude Code: usage per assistant message id
	final        *cost.Usage           // the result event's usage
	tokenOver    bool
	serviceError string // why the model's service failed the run ("" if it did not)
	refusals     refusals
	client       clientSaid
}

// clientSaid is what the client said of its own session during the run
// (Claude Code's stream-json): its last state, why its turn loop ended,
// lost writes, and the retry waits it announced.
type clientSaid struct {
	State, Ended, WritesLost string
	// Retries counts the retries announced; RetryWait is the last one's
	// announced wait, RetryAt when it was read.
	Retries   int
	RetryWait time.Duration
	RetryAt   time.Time
}

// runningMsg is one assistant message's usage as last seen.
type runningMsg struct {
	model  string
	tokens cost.Tokens
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

// take reads one line: its type says which clients' adapters read it
// (the run's client is not known: each reads the events of its own), and
// what they say is folded into the run.
func (s *streamReader) take(l []byte) {
	l = bytes.TrimSpace(l)
	var head struct {
		Type string `json:"type"`
	}
	if json.Unmarshal(l, &head) != nil {
		return
	}
	s.events++
	for _, x := range clients.Execs() {
		if slices.Contains(x.Types, head.Type) {
			s.fold(x.Line(head.Type, l))
		}
	}
}

// fold adds one step of the run, as an adapter read it.
func (s *streamReader) fold(st client.Step) {
	if st.Model != nil {
		s.model = *st.Model
	}
	if st.Failure != "" {
		s.serviceError = st.Failure
	}
	if st.FailureIfNone != "" && s.serviceError == "" {
		s.serviceError = st.FailureIfNone
	}
	if m := st.Message; m != nil {
		s.runningUsage(m.ID, m.Model, m.Tokens)
	}
	for range st.Calls {
		s.call()
	}
	if c := st.Begin; c != nil {
		s.refusals.begin(c.ID, c.Tool)
	}
	if r := st.Result; r != nil {
		s.refusals.result(r.ID, r.Refused)
	}
	for _, tool := range st.Refused {
		s.refusals.refuse(tool)
	}
	if st.State != "" {
		s.client.State = st.State
	}
	if st.Ended != "" {
		s.client.Ended = st.Ended
	}
	if st.WritesLost != "" {
		s.client.WritesLost = st.WritesLost
	}
	if st.Retrying {
		s.client.Retries++
		s.client.RetryWait, s.client.RetryAt = st.RetryWait, time.Now()
		if s.onRetry != nil {
			s.onRetry(st.RetryWait)
		}
	}
	s.said.WriteString(st.Said)
	if st.Reply != nil {
		s.result = *st.Reply
	}
	if u := st.Usage; u != nil {
		if u.Models == nil && s.model != "" {
			u.Models = map[string]cost.Tokens{s.model: u.Tokens}
		}
		s.final = u
		s.checkTokens(u.Tokens.Total())
	}
}

// runningUsage folds in an assistant message's usage (Claude Code repeats a
// message's usage on each of its content blocks: the last one counts).
func (s *streamReader) runningUsage(id, model string, t cost.Tokens) {
	if s.running == nil {
		s.running = map[string]runningMsg{}
	}
	if id == "" {
		id = fmt.Sprintf("#%d", s.events) // no id: each event is its own message
	}
	s.running[id] = runningMsg{model: model, tokens: t}
	var sum cost.Tokens // summed afresh: the counts are the client's, and a difference of them could wrap
	for _, m := range s.running {
		sum = sum.Add(m.tokens)
	}
	s.checkTokens(sum.Total())
}

func (s *streamReader) checkTokens(total int64) {
	if s.maxTokens > 0 && total > s.maxTokens && !s.tokenOver {
		s.tokenOver = true
		if s.onTokens != nil {
			go s.onTokens() // never kill from inside the child's pipe write
		}
	}
}

// usage is what the run reported: the result event's usage, else (a run
// ended before its result) the assistant messages' so far, marked partial;
// nil when the client reported none.
func (s *streamReader) usage() *cost.Usage {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.final != nil {
		return s.final.Clone()
	}
	if len(s.running) == 0 {
		return nil
	}
	u := &cost.Usage{Models: map[string]cost.Tokens{}, Partial: true}
	for _, m := range s.running {
		u.Tokens = u.Tokens.Add(m.tokens)
		u.Models[m.model] = u.Models[m.model].Add(m.tokens)
	}
	return u
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

// refused names the refused tools and counts the refused calls.
func (s *streamReader) refused() ([]string, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.refusals.tools...), s.refusals.n
}

// said is what the client said of its own session.
func (s *streamReader) saidOfSession() clientSaid {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.client
}

// serviceFailure says why the model's service failed the run, in a word of
// its client's adapter (Claude Code's rate_limit, overloaded,
// authentication_failed, billing_error, ...); "" if the service did not
// fail it.
func (s *streamReader) serviceFailure() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.serviceError
}
