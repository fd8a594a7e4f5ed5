package asks

import (
	"bufio"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/ai-heart/ai-heart/internal/asks/ask"
)

// Server is one agent's socket: its hooks ask on it, and the watchdog's
// user lists, answers and tells on it.
type Server struct {
	Book *Book
	// Workspace is the agent's workspace: a question from a hook wired
	// for another is refused.
	Workspace string
	// Tell writes a person's words for the agent (a feedback item) and
	// returns its workspace-relative name; nil refuses OpTell.
	Tell func(text string, urgent bool, by Credential) (string, error)
	// Logf says what went wrong with a peer (nil: nothing).
	Logf func(format string, args ...any)

	ln    *net.UnixListener
	path  string
	wg    sync.WaitGroup
	slots chan struct{}
	quit  chan struct{}
	once  sync.Once
}

// maxConns bounds the connections served at once: every pending question
// holds one, and a few more serve the operator.
const maxConns = MaxPending + 8

// readWait bounds how long a peer may take to send its request.
const readWait = ask.ReadWait

// answerWait bounds how long an answer waits to be written to its hook.
const answerWait = 5 * time.Second

// Listen makes the socket at path (mode 0660: the group reaches it; the
// folder decides who else does) and serves it until Close. A socket left
// at path by an earlier run is replaced; anything else there is refused.
func (s *Server) Listen(path string) error {
	if fi, err := os.Lstat(path); err == nil {
		if fi.Mode().Type() != os.ModeSocket {
			return fmt.Errorf("asks socket %s: a %s is there, not a socket", path, fi.Mode().Type())
		}
		if err := os.Remove(path); err != nil {
			return fmt.Errorf("asks socket: %w", err)
		}
	}
	ln, err := listenUnix(path)
	if err != nil {
		return fmt.Errorf("asks socket: %w", err)
	}
	if err := os.Chmod(path, 0o660); err != nil {
		ln.Close()
		os.Remove(path)
		return fmt.Errorf("asks socket: %w", err)
	}
	s.ln, s.path = ln, path
	s.slots, s.quit = make(chan struct{}, maxConns), make(chan struct{})
	s.wg.Go(s.serve)
	return nil
}

// Path is where the socket is.
func (s *Server) Path() string { return s.path }

// Close stops listening, ends every held question (their dialogs stand)
// and removes the socket.
func (s *Server) Close() {
	if s.ln == nil {
		return
	}
	s.once.Do(func() {
		close(s.quit)
		s.ln.Close()
		os.Remove(s.path)
		s.Book.WithdrawIf(func(Question) bool { return true }, "the watchdog stopped")
		s.wg.Wait()
	})
}

func (s *Server) serve() {
	for {
		c, err := s.ln.AcceptUnix()
		if err != nil {
			select {
			case <-s.quit:
				return
			default:
			}
			if ne, ok := err.(net.Error); ok && ne.Timeout() {
				continue
			}
			s.logf("asks socket: accept: %v", err)
			time.Sleep(100 * time.Millisecond) // out of descriptors: let the others finish
			continue
		}
		select {
		case s.slots <- struct{}{}:
		default:
			ask.WriteLine(c, Reply{Error: ErrFull.Error(), Code: "full"})
			c.Close()
			continue
		}
		s.wg.Go(func() {
			defer func() { <-s.slots }()
			defer c.Close()
			s.handle(c)
		})
	}
}

func (s *Server) handle(c *net.UnixConn) {
	pid, uid, err := peerCred(c)
	if err != nil {
		s.logf("asks socket: peer credentials: %v", err)
		return
	}
	r := bufio.NewReader(c)
	c.SetReadDeadline(time.Now().Add(readWait))
	var req Request
	if err := ask.ReadLine(r, &req); err != nil {
		s.logf("asks socket: request from pid %d: %v", pid, err)
		return
	}
	c.SetReadDeadline(time.Time{})
	if req.Op == OpAsk {
		s.ask(c, r, req.Ask, pid, uid)
		return
	}
	by := Credential{Via: "cli", By: fmt.Sprintf("uid %d", uid), From: fmt.Sprintf("pid %d", pid)}
	if req.By != "" {
		by.By += " (" + clip(req.By, 64) + ")"
	}
	if uid != os.Getuid() && uid != 0 {
		if req.Op == OpAnswer {
			s.Book.Refuse(req.ID, Decision{Allow: req.Allow}, by, ErrNotYours.Error())
		}
		reply(c, Reply{}, ErrNotYours)
		return
	}
	switch req.Op {
	case OpList:
		ask.WriteLine(c, Reply{Asks: s.Book.Pending()})
	case OpAnswer:
		q, err := s.Book.Answer(req.ID, Decision{Allow: req.Allow, Message: req.Message}, by, answerWait)
		reply(c, Reply{Question: &q}, err)
	case OpTell:
		if s.Tell == nil {
			reply(c, Reply{}, errors.New("this watchdog takes no words for the agent"))
			return
		}
		f, err := s.Tell(req.Text, req.Urgent, by)
		reply(c, Reply{File: f}, err)
	default:
		reply(c, Reply{}, fmt.Errorf("unknown op %q", clip(req.Op, 20)))
	}
}

// ask books the question and holds the connection until a person answers,
// the hold runs out, the question is withdrawn or the hook goes away.
func (s *Server) ask(c *net.UnixConn, r *bufio.Reader, a *Ask, pid, uid int) {
	if a == nil || a.Tool == "" {
		reply(c, Reply{}, errors.New("an ask names no tool"))
		return
	}
	if filepath.Clean(a.Workspace) != filepath.Clean(s.Workspace) {
		s.logf("asks socket: a question from pid %d names the workspace %q, not %s: refused (run `watchdog init` on the workspace again if its hooks were wired for another path)", pid, clip(a.Workspace, 200), s.Workspace)
		reply(c, Reply{}, fmt.Errorf("this socket is the agent's of %s; the hook names the workspace %q", s.Workspace, clip(a.Workspace, 200)))
		return
	}
	e, err := s.Book.add(*a, pid, uid)
	if err != nil {
		reply(c, Reply{}, err)
		return
	}
	defer close(e.gone)
	if err := ask.WriteLine(c, Reply{ID: e.q.ID, Hold: int(e.q.Hold.Sub(e.q.Since).Seconds()) + 1}); err != nil {
		s.Book.Withdraw(e.q.ID, "the hook went away")
		return
	}
	left := make(chan struct{})
	go func() { // the hook sends nothing more: a read returns when it goes away
		var b [1]byte
		r.Read(b[:])
		close(left)
	}()
	hold := time.NewTimer(e.q.Hold.Sub(e.q.Since))
	defer hold.Stop()
	select {
	case d := <-e.answer:
		d.result <- ask.WriteLine(c, Reply{Decision: &d.d})
	case <-hold.C:
		s.Book.Withdraw(e.q.ID, "no answer within asks.hold: the client's own dialog stands")
	case <-left:
		s.Book.Withdraw(e.q.ID, "the client's hook went away (the dialog was answered at the terminal, or the client ended it)")
	case <-e.withdrawn:
	case <-s.quit:
	}
}

func reply(c net.Conn, r Reply, err error) {
	if err != nil {
		r.Error, r.Code = err.Error(), ask.Code(err)
	}
	ask.WriteLine(c, r)
}

func (s *Server) logf(format string, args ...any) {
	if s.Logf != nil {
		s.Logf(format, args...)
	}
}

// Call sends one operator request to the socket at path and reads the
// reply (list, answer, tell).
func Call(path string, req Request, timeout time.Duration) (Reply, error) {
	c, err := dialUnix(path, timeout)
	if err != nil {
		return Reply{}, err
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(timeout))
	if err := ask.WriteLine(c, req); err != nil {
		return Reply{}, err
	}
	var rep Reply
	if err := ask.ReadLine(bufio.NewReader(c), &rep); err != nil {
		return Reply{}, fmt.Errorf("read the watchdog's reply: %w", err)
	}
	return rep, rep.Err()
}

func clip(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}
