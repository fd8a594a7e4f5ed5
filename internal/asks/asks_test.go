package asks

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/asks/ask"
)

// desk is one agent's book and socket, recording what the book tells.
type desk struct {
	t    *testing.T
	ws   string
	sock string
	book *Book
	srv  *Server

	mu      sync.Mutex
	records []Record
	asked   chan Question
}

func newDesk(t *testing.T, hold time.Duration) *desk {
	t.Helper()
	if !Supported {
		t.Skip("asks need Linux")
	}
	dir := t.TempDir()
	d := &desk{t: t, ws: filepath.Join(dir, "ai-works"), sock: filepath.Join(dir, "asks.sock"), asked: make(chan Question, 64)}
	d.book = NewBook("luna", hold, nil)
	d.book.Subscribe(func(c Change) {
		if c.Record == nil {
			d.asked <- c.Question
			return
		}
		d.mu.Lock()
		d.records = append(d.records, *c.Record)
		d.mu.Unlock()
	})
	d.srv = &Server{Book: d.book, Workspace: d.ws}
	if err := d.srv.Listen(d.sock); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(d.srv.Close)
	return d
}

func (d *desk) ask(tool, input string) Ask {
	return Ask{Client: "claude-code", Event: "PermissionRequest", Session: "s1", Tool: tool, Input: json.RawMessage(input), Workspace: d.ws}
}

type held struct {
	id  string
	dec *Decision
	err error
}

// hold asks in the background, as a hook does, and returns its outcome's
// channel once the question is booked.
func (d *desk) hold(a Ask, max time.Duration) (Question, <-chan held) {
	d.t.Helper()
	out := make(chan held, 1)
	go func() {
		id, dec, err := Hold(d.sock, a, max)
		out <- held{id, dec, err}
	}()
	select {
	case q := <-d.asked:
		return q, out
	case h := <-out:
		d.t.Fatalf("Hold returned before booking a question: %+v", h)
	case <-time.After(5 * time.Second):
		d.t.Fatal("no question booked within 5s")
	}
	return Question{}, nil
}

func wait(t *testing.T, c <-chan held) held {
	t.Helper()
	select {
	case h := <-c:
		return h
	case <-time.After(10 * time.Second):
		t.Fatal("the hook still holds after 10s")
	}
	return held{}
}

func (d *desk) last() Record {
	d.mu.Lock()
	defer d.mu.Unlock()
	if len(d.records) == 0 {
		d.t.Fatal("nothing recorded")
	}
	return d.records[len(d.records)-1]
}

func TestAnswerReachesTheHookThatAsked(t *testing.T) {
	for _, allow := range []bool{true, false} {
		t.Run(Decision{Allow: allow}.Word(), func(t *testing.T) {
			d := newDesk(t, time.Minute)
			q, out := d.hold(d.ask("Bash", `{"command":"touch x"}`), time.Minute)
			if q.Tool != "Bash" || string(q.Input) != `{"command":"touch x"}` || q.UID != os.Getuid() {
				t.Fatalf("question %+v: want the Bash call with its input and the asker's uid", q)
			}
			if p := d.book.Pending(); len(p) != 1 || p[0].ID != q.ID {
				t.Fatalf("Pending() = %+v, want the one question", p)
			}
			by := Credential{Via: "page", By: "the page's token"}
			if _, err := d.book.Answer(q.ID, Decision{Allow: allow, Message: "not now"}, by, 5*time.Second); err != nil {
				t.Fatalf("Answer: %v", err)
			}
			h := wait(t, out)
			if h.err != nil || h.id != q.ID || h.dec == nil || h.dec.Allow != allow {
				t.Fatalf("Hold = %+v, want the decision allow=%v for %s", h, allow, q.ID)
			}
			if r := d.last(); r.Outcome != Delivered || r.Decision != (Decision{Allow: allow}).Word() || r.Via != "page" || r.ID != q.ID {
				t.Fatalf("record %+v: want a delivered answer via the page", r)
			}
			if _, err := d.book.Answer(q.ID, Decision{Allow: true}, by, time.Second); !errors.Is(err, ErrAnswered) {
				t.Fatalf("a second answer: %v, want ErrAnswered", err)
			}
			if _, err := d.book.Answer("nosuchid", Decision{Allow: true}, by, time.Second); !errors.Is(err, ErrUnknown) {
				t.Fatalf("an unknown ID: %v, want ErrUnknown", err)
			}
			if r := d.last(); r.Outcome != Refused {
				t.Fatalf("record %+v: want the unknown ID's answer refused", r)
			}
		})
	}
}

// Nothing is allowed by a timeout: past the hold the hook gets no decision.
func TestNoAnswerWithinTheHoldIsNoDecision(t *testing.T) {
	d := newDesk(t, 300*time.Millisecond)
	q, out := d.hold(d.ask("Bash", `{"command":"rm -rf build"}`), time.Minute)
	h := wait(t, out)
	if h.err != nil || h.dec != nil || h.id != q.ID {
		t.Fatalf("Hold = %+v, want no decision and no error", h)
	}
	if r := d.last(); r.Outcome != Withdrawn {
		t.Fatalf("record %+v: want the question withdrawn", r)
	}
	if _, err := d.book.Answer(q.ID, Decision{Allow: true}, Credential{Via: "cli"}, time.Second); !errors.Is(err, ErrAnswered) {
		t.Fatalf("answering after the hold: %v, want ErrAnswered", err)
	}
}

// The agent's own question (heart-hook run by the agent, or a client of
// the socket of its own) gets its answer in its own process; the real
// hook's question stays pending, undecided.
func TestAForgedQuestionDecidesOnlyItself(t *testing.T) {
	d := newDesk(t, time.Minute)
	real, realOut := d.hold(d.ask("Bash", `{"command":"rm -rf ~"}`), time.Minute)
	forged, forgedOut := d.hold(d.ask("Bash", `{"command":"ls"}`), time.Minute)
	if real.ID == forged.ID {
		t.Fatal("two questions share an ID")
	}
	if _, err := d.book.Answer(forged.ID, Decision{Allow: true}, Credential{Via: "cli"}, 5*time.Second); err != nil {
		t.Fatal(err)
	}
	if h := wait(t, forgedOut); h.dec == nil || !h.dec.Allow {
		t.Fatalf("the forged hook got %+v", h)
	}
	select {
	case h := <-realOut:
		t.Fatalf("the real hook got %+v from an answer to another question", h)
	default:
	}
	if p := d.book.Pending(); len(p) != 1 || p[0].ID != real.ID {
		t.Fatalf("Pending() = %+v, want the real question alone", p)
	}
	d.book.Withdraw(real.ID, "test over")
	if h := wait(t, realOut); h.dec != nil {
		t.Fatalf("a withdrawn question decided %+v", h.dec)
	}
}

func TestAHookOfAnotherWorkspaceIsRefused(t *testing.T) {
	d := newDesk(t, time.Minute)
	a := d.ask("Bash", `{}`)
	a.Workspace = filepath.Join(filepath.Dir(d.ws), "other")
	if _, dec, err := Hold(d.sock, a, time.Minute); err == nil || dec != nil {
		t.Fatalf("Hold from another workspace = %v, %v; want refused", dec, err)
	}
	if len(d.book.Pending()) != 0 {
		t.Fatal("a question of another workspace was booked")
	}
}

func TestPendingIsBounded(t *testing.T) {
	d := newDesk(t, time.Minute)
	var outs []<-chan held
	for i := 0; i < MaxPending; i++ {
		_, out := d.hold(d.ask("Bash", `{}`), time.Minute)
		outs = append(outs, out)
	}
	if _, _, err := Hold(d.sock, d.ask("Bash", `{}`), time.Minute); !errors.Is(err, ErrFull) {
		t.Fatalf("question %d: %v, want ErrFull", MaxPending+1, err)
	}
	d.srv.Close()
	for _, o := range outs {
		if h := wait(t, o); h.dec != nil {
			t.Fatalf("a question closed by the watchdog's stop decided %+v", h.dec)
		}
	}
}

// A hook that has left (the person answered at the terminal, the client
// ended it) is withdrawn, and an answer to it says nothing was delivered.
func TestAnswerToAHookGone(t *testing.T) {
	d := newDesk(t, time.Minute)
	c, err := dialUnix(d.sock, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	a := d.ask("Bash", `{}`)
	ask.WriteLine(c, Request{Op: OpAsk, Ask: &a})
	q := <-d.asked
	c.Close()
	deadline := time.Now().Add(5 * time.Second)
	for len(d.book.Pending()) > 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if _, err := d.book.Answer(q.ID, Decision{Allow: true}, Credential{Via: "cli"}, time.Second); !errors.Is(err, ErrAnswered) {
		t.Fatalf("answer to a hook gone: %v, want ErrAnswered (withdrawn)", err)
	}
}

func TestOperatorCallsOverTheSocket(t *testing.T) {
	d := newDesk(t, time.Minute)
	var told []string
	d.srv.Tell = func(text string, urgent bool, by Credential) (string, error) {
		told = append(told, text)
		return "feedbackbox/x.md", nil
	}
	q, out := d.hold(d.ask("Bash", `{"command":"make"}`), time.Minute)
	rep, err := Call(d.sock, Request{Op: OpList}, 2*time.Second)
	if err != nil || len(rep.Asks) != 1 || rep.Asks[0].ID != q.ID {
		t.Fatalf("list = %+v, %v", rep, err)
	}
	if _, err := Call(d.sock, Request{Op: OpAnswer, ID: "zzzzzzzz", Allow: true}, 2*time.Second); !errors.Is(err, ErrUnknown) {
		t.Fatalf("answer to an unknown ID: %v, want ErrUnknown", err)
	}
	rep, err = Call(d.sock, Request{Op: OpAnswer, ID: q.ID, Message: "use make test"}, 5*time.Second)
	if err != nil || rep.Question == nil || rep.Question.ID != q.ID {
		t.Fatalf("answer = %+v, %v", rep, err)
	}
	if h := wait(t, out); h.dec == nil || h.dec.Allow || h.dec.Message != "use make test" {
		t.Fatalf("the hook got %+v, want the denial with its message", h)
	}
	if r := d.last(); r.Via != "cli" || r.By != "uid "+itoa(os.Getuid()) {
		t.Fatalf("record %+v: want the cli and the peer's uid", r)
	}
	if rep, err := Call(d.sock, Request{Op: OpTell, Text: "hello"}, 2*time.Second); err != nil || rep.File != "feedbackbox/x.md" || len(told) != 1 {
		t.Fatalf("tell = %+v, %v (told %q)", rep, err, told)
	}
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}
