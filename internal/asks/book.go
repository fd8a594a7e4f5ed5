package asks

import (
	"crypto/rand"
	"encoding/base32"
	"strings"
	"sync"
	"time"

	"github.com/ai-heart/ai-heart/internal/asks/ask"
)

// Credential says how an answer came and by whose authority: the record
// keeps it.
type Credential struct {
	// Via is the channel: cli (`watchdog answer` over the socket), page
	// (the page's token), link (a notification's single-use link).
	Via string `json:"via"`
	// By names the authority: "uid 1000", "the page's token", "link".
	By string `json:"by"`
	// From is the peer's address or process, where known.
	From string `json:"from,omitempty"`
}

// Record is one line of the answers' record: a question answered,
// withdrawn, or an answer refused.
type Record struct {
	Time      time.Time `json:"time"`
	Agent     string    `json:"agent"`
	ID        string    `json:"id"`
	Tool      string    `json:"tool,omitempty"`
	InputHash string    `json:"input_hash,omitempty"`
	Asked     time.Time `json:"asked,omitzero"`
	// Waited is how long the question waited for a person, in seconds.
	Waited float64 `json:"waited_s,omitempty"`
	// Decision is allow or deny ("" for a withdrawal).
	Decision string `json:"decision,omitempty"`
	// Outcome: delivered (the hook got it), gone (the hook had left),
	// withdrawn, refused; Why says more.
	Outcome string `json:"outcome"`
	Why     string `json:"why,omitempty"`
	// File is the feedback item a person's words became (Told).
	File   string `json:"file,omitempty"`
	Urgent bool   `json:"urgent,omitempty"`
	Credential
}

// Outcomes of a Record.
const (
	Delivered = "delivered"
	Gone      = "gone"
	Withdrawn = "withdrawn"
	Refused   = "refused"
	Told      = "told" // a person's words to the agent, not an answer
)

// Book keeps one agent's pending questions. Safe for concurrent use.
type Book struct {
	agent string
	now   func() time.Time
	hold  time.Duration
	max   int

	// Say, when set, is what the model reads with a denial, made of the
	// person's decision and credential (the agent's language is the
	// watchdog's to know).
	Say func(Decision, Credential) string

	mu      sync.Mutex
	pending map[string]*entry
	closed  map[string]bool // recently answered or withdrawn IDs
	order   []string        // closed, oldest first (bounded)
	subs    []func(Change)
}

// Change is what a subscriber hears: a question asked (Record nil), or
// answered, withdrawn or an answer refused (Record set).
type Change struct {
	Question Question
	Record   *Record
}

type entry struct {
	q         Question
	answer    chan delivery // one answer, buffered
	withdrawn chan struct{} // closed when it is withdrawn
	gone      chan struct{} // closed when its connection's handler returns
}

type delivery struct {
	d      Decision
	result chan error
}

// MaxPending bounds the questions one agent may have pending: a flood of
// forged ones is refused past it.
const MaxPending = 16

// keepClosed is how many answered IDs are remembered, to tell "already
// answered" from "unknown".
const keepClosed = 256

// NewBook is the book of agent's questions, each offered for hold.
func NewBook(agent string, hold time.Duration, now func() time.Time) *Book {
	if now == nil {
		now = time.Now
	}
	return &Book{agent: agent, now: now, hold: hold, max: MaxPending, pending: map[string]*entry{}, closed: map[string]bool{}}
}

// Hold is how long a question is offered.
func (b *Book) Hold() time.Duration {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.hold
}

// Subscribe calls f on every change, outside the book's lock, in order.
// It must not block.
func (b *Book) Subscribe(f func(Change)) {
	b.mu.Lock()
	b.subs = append(b.subs, f)
	b.mu.Unlock()
}

// add books a question asked by the process pid of uid.
func (b *Book) add(a Ask, pid, uid int) (*entry, error) {
	now := b.now()
	q := Question{ID: newID(), Agent: b.agent, Client: a.Client, Event: a.Event, Session: a.Session, Tool: a.Tool,
		InputHash: a.InputHash, Since: now, Hold: now.Add(b.Hold()), PID: pid, UID: uid}
	q.Input, q.Cut = ask.Shown(a.Input)
	e := &entry{q: q, answer: make(chan delivery, 1), withdrawn: make(chan struct{}), gone: make(chan struct{})}
	b.mu.Lock()
	if len(b.pending) >= b.max {
		b.mu.Unlock()
		return nil, ErrFull
	}
	b.pending[q.ID] = e
	subs := b.subs
	b.mu.Unlock()
	for _, f := range subs {
		f(Change{Question: q})
	}
	return e, nil
}

// Has reports whether question id is pending here, or was closed here
// lately.
func (b *Book) Has(id string) (pending, closed bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	_, pending = b.pending[id]
	return pending, b.closed[id]
}

// SetHold changes how long the questions asked from now on are offered.
func (b *Book) SetHold(d time.Duration) {
	b.mu.Lock()
	b.hold = d
	b.mu.Unlock()
}

// Pending lists the pending questions, oldest first.
func (b *Book) Pending() []Question {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := make([]Question, 0, len(b.pending))
	for _, e := range b.pending {
		out = append(out, e.q)
	}
	sortQuestions(out)
	return out
}

// Answer hands a person's decision to the hook that asked question id, and
// waits (at most wait) until it is written there. The record says what
// came of it; an unknown or closed ID is refused, and recorded as such.
func (b *Book) Answer(id string, d Decision, by Credential, wait time.Duration) (Question, error) {
	b.mu.Lock()
	e, ok := b.pending[id]
	if !ok {
		err := ErrUnknown
		if b.closed[id] {
			err = ErrAnswered
		}
		subs := b.subs
		b.mu.Unlock()
		b.tell(subs, Question{ID: id, Agent: b.agent}, Record{Decision: d.Word(), Outcome: Refused, Why: err.Error(), Credential: by})
		return Question{}, err
	}
	b.closeLocked(id)
	subs := b.subs
	b.mu.Unlock()
	if !d.Allow && b.Say != nil {
		d.Message = b.Say(d, by)
	}
	res := make(chan error, 1)
	e.answer <- delivery{d: d, result: res}
	var err error
	select {
	case err = <-res:
	case <-e.gone:
		select {
		case err = <-res:
		default:
			err = ErrGone
		}
	case <-time.After(wait):
		err = ErrGone
	}
	rec := Record{Decision: d.Word(), Outcome: Delivered, Credential: by}
	if err != nil {
		rec.Outcome, rec.Why, err = Gone, err.Error(), ErrGone
	}
	b.tell(subs, e.q, rec)
	return e.q, err
}

// Refuse records an answer refused before it reached the book (a peer
// that may not answer, a link that does not verify).
func (b *Book) Refuse(id string, d Decision, by Credential, why string) {
	b.mu.Lock()
	subs := b.subs
	b.mu.Unlock()
	b.tell(subs, Question{ID: id, Agent: b.agent}, Record{Decision: d.Word(), Outcome: Refused, Why: why, Credential: by})
}

// Told records a person's words handed to the agent as the feedback item
// file.
func (b *Book) Told(file string, urgent bool, by Credential) {
	b.mu.Lock()
	subs := b.subs
	b.mu.Unlock()
	b.tell(subs, Question{Agent: b.agent}, Record{Outcome: Told, File: file, Urgent: urgent, Credential: by})
}

// Withdraw ends question id without an answer (why says what ended it):
// its hook exits and the client's own dialog stands. False when it was not
// pending.
func (b *Book) Withdraw(id, why string) bool {
	b.mu.Lock()
	e, ok := b.pending[id]
	if !ok {
		b.mu.Unlock()
		return false
	}
	b.closeLocked(id)
	close(e.withdrawn)
	subs := b.subs
	b.mu.Unlock()
	b.tell(subs, e.q, Record{Outcome: Withdrawn, Why: why})
	return true
}

// WithdrawIf withdraws every pending question that over reports over, saying
// why.
func (b *Book) WithdrawIf(over func(Question) bool, why string) {
	for _, q := range b.Pending() {
		if over(q) {
			b.Withdraw(q.ID, why)
		}
	}
}

func (b *Book) closeLocked(id string) {
	delete(b.pending, id)
	b.closed[id] = true
	b.order = append(b.order, id)
	if len(b.order) > keepClosed {
		delete(b.closed, b.order[0])
		b.order = b.order[1:]
	}
}

func (b *Book) tell(subs []func(Change), q Question, r Record) {
	now := b.now()
	r.Time, r.Agent, r.ID, r.Tool, r.InputHash, r.Asked = now, b.agent, q.ID, q.Tool, q.InputHash, q.Since
	if !q.Since.IsZero() {
		r.Waited = now.Sub(q.Since).Round(time.Second).Seconds()
	}
	for _, f := range subs {
		f(Change{Question: q, Record: &r})
	}
}

// newID is a question's ID: 8 letters and digits, easy to type. It is no
// secret: knowing it answers nothing.
func newID() string {
	var b [5]byte
	_, _ = rand.Read(b[:])
	return strings.ToLower(base32.StdEncoding.EncodeToString(b[:]))
}

func sortQuestions(qs []Question) {
	for i := 1; i < len(qs); i++ {
		for j := i; j > 0 && qs[j].Since.Before(qs[j-1].Since); j-- {
			qs[j], qs[j-1] = qs[j-1], qs[j]
		}
	}
}
