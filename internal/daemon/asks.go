package daemon

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ai-heart/ai-heart/internal/asks"
	"github.com/ai-heart/ai-heart/internal/checks"
	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/day"
	"github.com/ai-heart/ai-heart/internal/hook"
	"github.com/ai-heart/ai-heart/internal/state"
)

// desk is an agent's questions from its client (package asks): the book,
// and the socket its hooks ask on. A reload keeps it, with the questions
// its hooks hold.
type desk struct {
	book    *asks.Book
	srv     *asks.Server
	sock    string
	agent   atomic.Pointer[agent] // the agent it serves now
	adopted bool                  // a reload's agent took it over

	mu     sync.Mutex
	recent []state.Answer // newest last
	today  struct {
		day    string
		waited time.Duration
		n      int
	}
}

// newDesk is the agent's desk, nil while asks.hold is 0 or questions
// cannot be held here (heart-hook then holds nothing: the dialogs stand).
func (a *agent) newDesk() *desk {
	sock := a.cfg.AsksSocket()
	if a.cfg.Asks.Hold <= 0 || !asks.Supported || sock == "" {
		return nil
	}
	d := &desk{book: asks.NewBook(a.name, a.askHold(), a.clock.Now), sock: sock}
	d.agent.Store(a)
	d.book.Subscribe(func(c asks.Change) { d.agent.Load().asked(c) })
	d.book.Say = func(dec asks.Decision, by asks.Credential) string { return d.agent.Load().denial(dec, by) }
	return d
}

// serve makes a the agent the desk works for.
func (d *desk) serve(a *agent) {
	d.agent.Store(a)
	d.book.SetHold(a.askHold())
}

// askHold is how long a question is offered. A headless run's client
// (Claude Code -p since 2.1.2xx) asks the hooks too, and nobody may be
// watching: the question is offered for half the run's timeout at most,
// so the client then refuses the call and the run ends on its own, not
// at its timeout as a failed delivery.
func (a *agent) askHold() time.Duration {
	h := a.cfg.Asks.Hold.D()
	if a.cfg.Agent.Delivery == config.DeliveryExec {
		h = min(h, a.cfg.Agent.Timeout.D()/2)
	}
	return h
}

// openDesk starts listening on the asks socket, once: an error is a
// warning, and the dialogs stand.
func (a *agent) openDesk() {
	d := a.desk
	if d == nil || d.srv != nil {
		return
	}
	srv := &asks.Server{Book: d.book, Workspace: a.ws.Root,
		Tell: func(text string, urgent bool, by asks.Credential) (string, error) {
			return d.agent.Load().tell(text, urgent, by)
		},
		Logf: func(format string, args ...any) { d.agent.Load().log.Warn().Msgf(format, args...) }}
	if err := srv.Listen(d.sock); err != nil {
		a.log.Error().Err(err).Msg("asks socket")
		a.emit(a.clock.Now(), a.currentID(), checks.Warning, "asks", "no question of the client can be answered from afar: "+err.Error(), 0)
		return
	}
	d.srv = srv
	a.log.Info().Str("socket", d.sock).Str("hold", a.askHold().String()).Msg("the client's questions are offered to a person")
}

// close ends the desk: every held question's dialog stands.
func (d *desk) close() {
	if d != nil && d.srv != nil {
		d.srv.Close()
	}
}

// adoptDesk takes over old's desk across a reload, when it asks on the
// same socket for the same workspace.
func (a *agent) adoptDesk(old *agent) {
	if a.desk == nil || old.desk == nil || a.desk.sock != old.desk.sock || a.ws.Root != old.ws.Root {
		return
	}
	a.desk, old.desk.adopted = old.desk, true
	a.desk.serve(a)
}

// asked hears every change of the agent's book: a question offered, one
// answered or withdrawn, an answer refused. Each answer goes to the
// record in the state folder and on the day strip.
func (a *agent) asked(c asks.Change) {
	if c.Record == nil {
		a.log.Info().Str("ask", c.Question.ID).Str("tool", c.Question.Tool).Int("pid", c.Question.PID).Msg("a question of the client is offered to a person")
	} else {
		r := *c.Record
		a.wrote(r.Time, "answers record", asks.Append(filepath.Join(a.dir, asks.AuditFile), r))
		a.log.Info().Str("ask", r.ID).Str("outcome", r.Outcome).Str("decision", r.Decision).Str("via", r.Via).Str("by", r.By).Str("why", r.Why).Msg("a question's end")
		a.wrote(r.Time, "day strip", a.day.Add(day.Mark{Time: r.Time, Kind: day.KindAnswer, Outcome: r.Outcome, Source: r.Via, Message: answerLine(r)}))
		if a.desk != nil {
			a.desk.note(r, a.loc)
		}
	}
	if a.onAsk != nil {
		a.onAsk(c)
	}
}

// note keeps r among the recent answers and today's waiting.
func (d *desk) note(r asks.Record, loc *time.Location) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.recent = append(d.recent, state.Answer{Time: r.Time, ID: r.ID, Tool: r.Tool, Decision: r.Decision, Outcome: r.Outcome,
		Why: r.Why, Via: r.Via, By: r.By, Waited: r.Waited})
	if len(d.recent) > state.RecentAnswers {
		d.recent = d.recent[len(d.recent)-state.RecentAnswers:]
	}
	if r.Outcome == asks.Refused || r.Outcome == asks.Told {
		return
	}
	if today := r.Time.In(loc).Format(time.DateOnly); today != d.today.day {
		d.today.day, d.today.waited, d.today.n = today, 0, 0
	}
	d.today.waited += time.Duration(r.Waited * float64(time.Second))
	d.today.n++
}

// answerLine is an answer in words, for the day strip.
func answerLine(r asks.Record) string {
	what := r.Tool
	switch r.Outcome {
	case asks.Delivered:
		return fmt.Sprintf("%s: %s from afar (%s, %s) after %s", what, r.Decision, r.Via, r.By, waited(r))
	case asks.Gone:
		return fmt.Sprintf("%s: %s from afar (%s) came too late: %s", what, r.Decision, r.Via, r.Why)
	case asks.Withdrawn:
		return fmt.Sprintf("%s: no answer from afar after %s (%s)", what, waited(r), r.Why)
	case asks.Told:
		return fmt.Sprintf("words for the agent (%s, %s): %s", r.Via, r.By, r.File)
	}
	return fmt.Sprintf("an answer refused (%s, %s): %s", r.Via, r.By, r.Why)
}

func waited(r asks.Record) string {
	return (time.Duration(r.Waited) * time.Second).String()
}

// asksState is the desk as the state file shows it; nil without one.
func (a *agent) asksState(now time.Time) *state.Asks {
	d := a.desk
	if d == nil {
		return nil
	}
	s := &state.Asks{Pending: []state.Ask{}, Socket: d.sock}
	for _, q := range d.book.Pending() {
		s.Pending = append(s.Pending, state.Ask{ID: q.ID, Tool: q.Tool, Input: oneLine(string(q.Input), 200), Since: q.Since, Hold: q.Hold})
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	s.Recent = append([]state.Answer(nil), d.recent...)
	if d.today.day == now.In(a.loc).Format(time.DateOnly) {
		s.WaitedToday, s.Today = d.today.waited.Seconds(), d.today.n
	}
	return s
}

// withdrawAsks ends the questions that the hook event e shows over: the
// call ran or was refused (answered at the terminal), or the session's
// turn moved on. Their dialogs are gone; a late answer would do nothing.
func (a *agent) withdrawAsks(e hook.Event) {
	d := a.desk
	if d == nil || e.Session == "" {
		return
	}
	var why string
	sameTool := false
	switch e.Kind {
	case hook.ToolDone, hook.ToolFailed:
		why, sameTool = "the call ran: answered at the terminal", true
	case hook.Refused:
		why, sameTool = "the client refused the call", true
	case hook.TurnStart, hook.TurnEnd, hook.Failure, hook.SessionEnd:
		why = "the client's turn moved on"
	default:
		return
	}
	d.book.WithdrawIf(func(q asks.Question) bool {
		return q.Session == e.Session && e.Time.After(q.Since) && (!sameTool || q.Tool == e.Tool)
	}, why)
}

// oneLine cuts s to a line of at most n bytes.
func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > n {
		s = strings.ToValidUTF8(s[:n], "") + "…"
	}
	return s
}

// Asks lists every agent's pending questions, oldest first per agent.
func (d *Daemon) Asks() []asks.Question {
	out := []asks.Question{}
	for _, a := range d.agentList() {
		if a.desk != nil {
			out = append(out, a.desk.book.Pending()...)
		}
	}
	return out
}

// Answer hands a person's decision on question id to the hook that asked
// it (agent "" is whichever agent has it). An unknown or closed ID is
// asks.ErrUnknown or asks.ErrAnswered.
func (d *Daemon) Answer(name, id string, dec asks.Decision, by asks.Credential) (asks.Question, error) {
	var known *agent
	for _, a := range d.agentList() {
		if a.desk == nil || (name != "" && a.name != name) {
			continue
		}
		pending, closed := a.desk.book.Has(id)
		if pending || closed || known == nil {
			known = a
		}
		if pending || closed {
			break
		}
	}
	if known == nil {
		if name != "" {
			return asks.Question{}, fmt.Errorf("%w %q, or it offers no questions", ErrNoAgent, name)
		}
		return asks.Question{}, asks.ErrUnknown
	}
	return known.desk.book.Answer(id, dec, by, 5*time.Second)
}

// ErrNoAgent reports a name the daemon does not supervise.
var ErrNoAgent = errors.New("no agent")

// Tell writes a person's words for the agent as a feedback item, urgent
// or not, and records it.
func (d *Daemon) Tell(name, text string, urgent bool, by asks.Credential) (string, error) {
	agents := d.agentList()
	for _, a := range agents {
		if a.name == name || (name == "" && len(agents) == 1) {
			return a.tell(text, urgent, by)
		}
	}
	return "", fmt.Errorf("%w %q", ErrNoAgent, name)
}

func (d *Daemon) agentList() []*agent {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.agents
}
