package ask

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"
)

// The socket speaks JSON lines: one Request from the peer, then Replies
// from the watchdog. An ask gets a Reply with the question's ID at once,
// then, when a person answers, a Reply with the Decision; a connection
// closed without one is no answer.

// Operations a peer may ask for.
const (
	OpAsk    = "ask"    // a hook's question (anyone who can connect)
	OpList   = "list"   // the pending questions (the watchdog's user, root)
	OpAnswer = "answer" // a person's answer (the watchdog's user, root)
	OpTell   = "tell"   // a person's words to the agent (the watchdog's user, root)
)

// Request is what a peer sends, on one line.
type Request struct {
	Op string `json:"op"`
	// Ask is the question, for OpAsk.
	Ask *Ask `json:"ask,omitempty"`
	// ID and Allow answer a question (OpAnswer); Message is said to the
	// model with a denial.
	ID      string `json:"id,omitempty"`
	Allow   bool   `json:"allow,omitempty"`
	Message string `json:"message,omitempty"`
	// Text and Urgent are a person's words to the agent (OpTell).
	Text   string `json:"text,omitempty"`
	Urgent bool   `json:"urgent,omitempty"`
	// By names the person, for the record ("" is the peer's user).
	By string `json:"by,omitempty"`
}

// Ask is a question as the client's hook reports it.
type Ask struct {
	Client    string          `json:"client"`
	Event     string          `json:"event"` // the client's event name (PermissionRequest)
	Session   string          `json:"session,omitempty"`
	Tool      string          `json:"tool"`
	Input     json.RawMessage `json:"input,omitempty"`
	InputHash string          `json:"input_hash,omitempty"` // as the hooks' spool keeps it
	Workspace string          `json:"workspace"`            // the hook's --workspace
}

// Reply is what the watchdog sends back.
type Reply struct {
	// ID is the question's, and Hold how long it is offered (seconds).
	ID   string `json:"id,omitempty"`
	Hold int    `json:"hold_s,omitempty"`
	// Decision is a person's answer to the question asked on this
	// connection.
	Decision *Decision `json:"decision,omitempty"`
	// Asks lists the pending questions (OpList); Question is the one
	// answered (OpAnswer).
	Asks     []Question `json:"asks,omitempty"`
	Question *Question  `json:"question,omitempty"`
	// File is the feedback item written (OpTell).
	File string `json:"file,omitempty"`
	// Error says why the request was refused; Code is its word (see Err*).
	Error string `json:"error,omitempty"`
	Code  string `json:"code,omitempty"`
}

// Decision is a person's answer. Message is what the model is told with a
// denial (the client's own words when empty).
type Decision struct {
	Allow   bool   `json:"allow"`
	Message string `json:"message,omitempty"`
}

// Word is "allow" or "deny".
func (d Decision) Word() string {
	if d.Allow {
		return "allow"
	}
	return "deny"
}

// ParseWord reads "allow" or "deny".
func ParseWord(s string) (allow bool, err error) {
	switch s {
	case "allow":
		return true, nil
	case "deny":
		return false, nil
	}
	return false, fmt.Errorf("%q: want allow or deny", s)
}

// Question is a pending question as the operator sees it.
type Question struct {
	ID      string    `json:"id"`
	Agent   string    `json:"agent"`
	Client  string    `json:"client"`
	Event   string    `json:"event"`
	Session string    `json:"session,omitempty"`
	Tool    string    `json:"tool"`
	Since   time.Time `json:"since"`
	// Input is the tool's input as the client gave it (at most MaxShown
	// bytes; longer ones are cut and Cut is set). InputHash binds it.
	Input     json.RawMessage `json:"input,omitempty"`
	Cut       bool            `json:"input_cut,omitempty"`
	InputHash string          `json:"input_hash,omitempty"`
	// Hold is when the question stops being offered: the client's own
	// dialog stands from then on.
	Hold time.Time `json:"hold_until"`
	// PID and UID are the asking process's (SO_PEERCRED; -1 unknown).
	PID int `json:"pid"`
	UID int `json:"uid"`
}

// Errors a request can meet, with their codes on the wire.
var (
	ErrUnknown  = errors.New("no pending question has this ID")
	ErrAnswered = errors.New("the question was already answered or withdrawn")
	ErrNotYours = errors.New("only the watchdog's user or root may answer or list questions")
	ErrFull     = errors.New("too many questions are pending")
	ErrGone     = errors.New("the client's hook is gone: nothing was delivered")
)

var codes = map[string]error{"unknown": ErrUnknown, "answered": ErrAnswered, "not_yours": ErrNotYours, "full": ErrFull, "gone": ErrGone}

// Code is err's word on the wire, "" for another error.
func Code(err error) string {
	for c, e := range codes {
		if errors.Is(err, e) {
			return c
		}
	}
	return ""
}

// Err is the error a Reply carries, wrapping its sentinel; nil if none.
func (r Reply) Err() error {
	if r.Error == "" {
		return nil
	}
	if e, ok := codes[r.Code]; ok {
		return fmt.Errorf("%w: %s", e, r.Error)
	}
	return errors.New(r.Error)
}

// MaxLine bounds one line on the socket: a question's input is cut to
// MaxShown, so a line is small.
const MaxLine = 256 << 10

// MaxShown bounds the input shown with a question.
const MaxShown = 16 << 10

// WriteLine writes v as one JSON line.
func WriteLine(w io.Writer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// ReadLine reads one JSON line of at most MaxLine bytes into v.
func ReadLine(r *bufio.Reader, v any) error {
	var line []byte
	for {
		chunk, more, err := r.ReadLine()
		if err != nil {
			return err
		}
		line = append(line, chunk...)
		if len(line) > MaxLine {
			return fmt.Errorf("a line over %d bytes", MaxLine)
		}
		if !more {
			break
		}
	}
	return json.Unmarshal(line, v)
}

// Shown is an input as a question shows it: cut to MaxShown bytes (then
// as a JSON string of its start), and whether it was cut.
func Shown(in json.RawMessage) (json.RawMessage, bool) {
	if len(in) <= MaxShown {
		if len(in) == 0 || json.Valid(in) {
			return in, false
		}
	}
	s := string(in)
	if len(s) > MaxShown {
		s = strings.ToValidUTF8(s[:MaxShown], "")
	}
	b, _ := json.Marshal(s)
	return b, true
}
