package main

import (
	"net"
	"strings"
	"sync"
	"time"

	"github.com/ai-heart/ai-heart/internal/asks"
	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/notify"
)

// asked carries every change of the agents' questions (package asks) to
// the page, the metrics and the notifications: a question is notified at
// once with its single-use link, and once more after asks.remind if it
// still waits.
type asked struct {
	win      *window          // nil without http
	notifier *notify.Notifier // nil without targets
	links    *asks.Links
	base     string                   // the page's address, ending in /
	remind   map[string]time.Duration // asks.remind of each agent
	// pending lists the questions offered now: the daemon's, once built.
	pending func() []asks.Question

	mu     sync.Mutex
	timers map[string]*time.Timer // reminders, by question
}

func newAsked(cfg *config.Config, win *window, n *notify.Notifier) *asked {
	h := &asked{win: win, notifier: n, links: asks.NewLinks(), remind: map[string]time.Duration{}, timers: map[string]*time.Timer{},
		pending: func() []asks.Question { return nil }}
	if win != nil {
		h.links = win.links // the page checks what the notifications link to
	}
	for _, a := range cfg.AgentConfigs() {
		h.remind[a.DisplayName()] = a.Asks.Remind.D()
	}
	if win != nil {
		h.base = pageURL(cfg.HTTP)
	}
	return h
}

// pageURL is where a person's phone finds the page: http.public_url, else
// the listen address ("" without a window).
func pageURL(h config.HTTP) string {
	switch {
	case h.PublicURL != "":
		return strings.TrimSuffix(h.PublicURL, "/") + "/"
	case h.Listen == "":
		return ""
	}
	host, port, err := net.SplitHostPort(h.Listen)
	if err != nil {
		return ""
	}
	if host == "" || host == "0.0.0.0" || host == "::" {
		host = "127.0.0.1"
	}
	return "http://" + net.JoinHostPort(host, port) + "/"
}

// changed hears one change of an agent's book.
func (h *asked) changed(c asks.Change) {
	q := c.Question
	if h.win != nil {
		h.win.web.PublishAsks()
		if c.Record == nil {
			h.win.metrics.Asked(q.Agent, "offered", 0)
		} else {
			h.win.metrics.Asked(c.Record.Agent, outcomeWord(*c.Record), time.Duration(c.Record.Waited*float64(time.Second)))
		}
	}
	if c.Record == nil {
		h.offered(q)
		return
	}
	switch c.Record.Outcome {
	case asks.Refused, asks.Told:
		return
	}
	h.mu.Lock()
	if t := h.timers[q.ID]; t != nil {
		t.Stop()
		delete(h.timers, q.ID)
	}
	h.mu.Unlock()
	if h.notifier != nil && !h.asking(q.Agent) {
		h.notifier.Asking(q.Agent, false, time.Now())
	}
}

// offered notifies a question at once, and schedules its reminder.
func (h *asked) offered(q asks.Question) {
	if h.notifier == nil {
		return
	}
	h.notifier.Asking(q.Agent, true, time.Now())
	h.notifier.Asked(h.message(q, false))
	if d := h.remind[q.Agent]; d > 0 && q.Since.Add(d).Before(q.Hold) {
		h.mu.Lock()
		h.timers[q.ID] = time.AfterFunc(d, func() {
			h.mu.Lock()
			delete(h.timers, q.ID)
			h.mu.Unlock()
			if h.stillPending(q) {
				h.notifier.Asked(h.message(q, true))
			}
		})
		h.mu.Unlock()
	}
}

func (h *asked) message(q asks.Question, reminder bool) notify.Question {
	m := notify.Question{Agent: q.Agent, ID: q.ID, Tool: q.Tool, Input: clipLine(string(q.Input), 500), Since: q.Since, Reminder: reminder}
	if h.base != "" {
		m.Link = h.base + "answer/" + h.links.Mint(q.Agent, q.ID, q.Hold)
		m.Answer = m.Link
	}
	return m
}

func (h *asked) stillPending(q asks.Question) bool {
	for _, p := range h.pending() {
		if p.ID == q.ID && p.Agent == q.Agent {
			return true
		}
	}
	return false
}

// asking reports whether agent has a question offered now.
func (h *asked) asking(agent string) bool {
	for _, p := range h.pending() {
		if p.Agent == agent {
			return true
		}
	}
	return false
}

// outcomeWord is a record's outcome for the metrics: a delivered answer
// is its decision.
func outcomeWord(r asks.Record) string {
	if r.Outcome == asks.Delivered {
		return r.Decision
	}
	return r.Outcome
}
