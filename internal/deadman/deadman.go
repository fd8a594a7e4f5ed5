// Package deadman is the watchdog's own dead-man's switch: on a healthy
// pulse it pings a URL (healthchecks.io style), at most once an interval,
// so a service that hears no ping tells the operator the watchdog is down,
// not only the agent. The ping goes off the pulse's path: a queue of one,
// a timeout, and nothing the pulse waits for. The URL is a secret: it is
// never logged, and errors say only what failed.
package deadman

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/rs/zerolog"
)

// Options configure a Pinger.
type Options struct {
	URL    string        // the ping URL (a secret)
	Method string        // GET or POST
	Every  time.Duration // at most one ping per Every
	// Fail pings URL + "/fail" while some agent has a check at error.
	Fail    bool
	Timeout time.Duration // per ping
	Log     zerolog.Logger
}

// Pinger pings on healthy pulses. Beat and Observe never block.
type Pinger struct {
	o      Options
	client *http.Client
	queue  chan string // the URL to ping next; one waits at most

	mu      sync.Mutex
	last    time.Time       // the last ping queued
	failing map[string]bool // agents with a check at error
	broken  bool            // the last ping failed (said once until one works)
}

// New makes a Pinger; Run sends its pings.
func New(o Options) *Pinger {
	return &Pinger{o: o, client: &http.Client{Timeout: o.Timeout}, queue: make(chan string, 1), failing: map[string]bool{}}
}

// Observe notes whether an agent's last pulse has a check at error.
func (p *Pinger) Observe(agent string, failing bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.failing[agent] = failing
}

// Beat is a healthy pulse at now (every agent pulsed): it queues a ping
// unless one was queued less than Every ago or one is still waiting.
func (p *Pinger) Beat(now time.Time) {
	p.mu.Lock()
	if !p.last.IsZero() && now.Sub(p.last) < p.o.Every {
		p.mu.Unlock()
		return
	}
	u := p.o.URL
	if p.o.Fail {
		for _, f := range p.failing {
			if f {
				u = failURL(u)
				break
			}
		}
	}
	p.mu.Unlock()
	select {
	case p.queue <- u:
		p.mu.Lock()
		p.last = now
		p.mu.Unlock()
	default: // a ping still waits to go: this one adds nothing
	}
}

// Run sends the queued pings until ctx ends.
func (p *Pinger) Run(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case u := <-p.queue:
			p.ping(ctx, u)
		}
	}
}

func (p *Pinger) ping(ctx context.Context, u string) {
	ctx, cancel := context.WithTimeout(ctx, p.o.Timeout)
	defer cancel()
	err := p.send(ctx, u)
	p.mu.Lock()
	was := p.broken
	p.broken = err != nil
	p.mu.Unlock()
	switch {
	case err != nil && !was:
		p.o.Log.Warn().Str("error", err.Error()).Msg("healthcheck ping failed (said once until one works)")
	case err == nil && was:
		p.o.Log.Info().Msg("healthcheck pings work again")
	}
}

// errStatus is a ping the service refused; its code is all it says.
type errStatus int

func (e errStatus) Error() string { return "the service answered " + http.StatusText(int(e)) }

// send makes one ping. Its error never carries the URL.
func (p *Pinger) send(ctx context.Context, u string) error {
	req, err := http.NewRequestWithContext(ctx, p.o.Method, u, nil)
	if err != nil {
		return errors.New("the ping URL does not parse")
	}
	req.Header.Set("User-Agent", "ai-heart-watchdog")
	resp, err := p.client.Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			return ue.Err // the cause without the URL
		}
		return errors.New("the request failed")
	}
	resp.Body.Close()
	if resp.StatusCode >= 300 {
		return errStatus(resp.StatusCode)
	}
	return nil
}

// failURL is u with /fail at the end of its path: before a query or a
// fragment (…/ping/UUID?create=1 → …/ping/UUID/fail?create=1), the rest
// kept byte for byte.
func failURL(u string) string {
	i := strings.IndexAny(u, "?#")
	if i < 0 {
		i = len(u)
	}
	return strings.TrimSuffix(u[:i], "/") + "/fail" + u[i:]
}
