// Package notify sends the alert state changes to the services people read
// on their phones (ntfy, Slack, Discord, Telegram, email, webhooks...)
// through shoutrrr. Sending runs beside the pulse: the pulse only appends to
// a buffer, and each target has its own worker, bounded queue, timeout and
// retries, so a hung endpoint never delays a pulse, an ID or a wakeup.
package notify

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nicholas-fedor/shoutrrr/pkg/router"
	"github.com/nicholas-fedor/shoutrrr/pkg/types"
	"github.com/rs/zerolog"

	"github.com/ai-heart/ai-heart/internal/checks"
)

// Target is one place notifications go.
type Target struct {
	URL         string // secret: never logged; see Redact
	MinLevel    checks.Level
	MinInterval time.Duration
}

// Options tune sending. Zero values take the defaults.
type Options struct {
	Timeout  time.Duration // one attempt (default 10s)
	Retries  int           // after the first attempt (default 3; -1 for none)
	Backoff  time.Duration // before the first retry, doubling (default 2s)
	Queue    int           // messages waiting per target (default 32)
	Log      zerolog.Logger
	Now      func() time.Time
	OnResult func(agent string, err error) // each message, once: nil when delivered
}

// maxHung bounds the attempts a target may leave running after their
// timeout: some services' HTTP clients have no deadline of their own.
const maxHung = 4

// ErrHung is returned, without trying, while a target has maxHung attempts
// still hanging.
var ErrHung = errors.New("the endpoint is still hanging on earlier attempts")

// Notifier batches alerts per agent and pulse, and sends them.
type Notifier struct {
	opts    Options
	targets []*target
	mu      sync.Mutex
	pending map[string][]Change  // per agent, since its last flush
	asking  map[string]time.Time // agents with a question offered: zero while pending, else quiet until
	closed  bool
	wg      sync.WaitGroup
	quit    chan struct{}
}

type target struct {
	name   string // redacted URL
	scrub  scrubber
	url    string // secret
	router *router.ServiceRouter
	fold   *folder // guarded by Notifier.mu
	queue  chan message
	hung   atomic.Int32
}

type message struct {
	agent, title, body string
	link, answer       string // a question's (see Asked)
}

// New checks every target's URL with shoutrrr and starts the workers.
// Errors name the target by its redacted URL.
func New(targets []Target, opts Options) (*Notifier, error) {
	if opts.Timeout <= 0 {
		opts.Timeout = 10 * time.Second
	}
	if opts.Retries == 0 {
		opts.Retries = 3
	}
	if opts.Backoff <= 0 {
		opts.Backoff = 2 * time.Second
	}
	if opts.Queue <= 0 {
		opts.Queue = 32
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	n := &Notifier{opts: opts, pending: map[string][]Change{}, asking: map[string]time.Time{}, quit: make(chan struct{})}
	r, err := router.New(nil)
	if err != nil {
		return nil, err
	}
	for i, t := range targets {
		name, sc := Redact(t.URL), newScrubber(t.URL)
		if _, err := r.Locate(t.URL); err != nil {
			return nil, fmt.Errorf("alerts.notify[%d] (%s): %s", i, name, sc.scrub(err.Error()))
		}
		n.targets = append(n.targets, &target{name: name, scrub: sc, url: t.URL, router: r,
			fold: newFolder(t.MinLevel, t.MinInterval), queue: make(chan message, opts.Queue)})
	}
	for _, t := range n.targets {
		n.wg.Add(1)
		go n.work(t)
	}
	return n, nil
}

// Names are the targets' redacted URLs, for a start-up log line.
func (n *Notifier) Names() []string {
	out := make([]string, len(n.targets))
	for i, t := range n.targets {
		out[i] = t.name
	}
	return out
}

// Add buffers one alert. It never blocks on the network: it is called on
// the pulse.
func (n *Notifier) Add(agent string, c Change) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if !n.closed {
		n.pending[agent] = append(n.pending[agent], c)
	}
}

// Flush sends what one agent's pulse changed, as one message per target. A
// full queue drops the message, counted as a failure, rather than wait.
func (n *Notifier) Flush(agent string) { n.flushAt(agent, n.opts.Now()) }

func (n *Notifier) flushAt(agent string, now time.Time) {
	n.mu.Lock()
	if n.closed {
		n.mu.Unlock()
		return
	}
	changes := n.quiet(agent, n.pending[agent], now)
	delete(n.pending, agent)
	var out []*target
	var msgs []message
	for _, t := range n.targets {
		if lines := t.fold.flush(agent, changes, now); len(lines) > 0 {
			title, body := compose(agent, lines)
			out, msgs = append(out, t), append(msgs, message{agent: agent, title: title, body: body})
		}
	}
	// Enqueued under the lock (it never blocks), so Close cannot close a
	// queue between the check above and the send.
	var dropped []*target
	for i, t := range out {
		select {
		case t.queue <- msgs[i]:
		default:
			dropped = append(dropped, t)
		}
	}
	n.mu.Unlock()
	for _, t := range dropped {
		n.opts.Log.Warn().Str("agent", agent).Str("notify", t.name).Msg("notification queue full: message dropped")
		n.result(agent, fmt.Errorf("queue full"))
	}
}

// Close sends what is queued (no more retries once closing) and stops the
// workers, waiting at most wait.
func (n *Notifier) Close(wait time.Duration) {
	n.mu.Lock()
	agents := make([]string, 0, len(n.pending))
	for a := range n.pending {
		agents = append(agents, a)
	}
	n.mu.Unlock()
	for _, a := range agents {
		n.Flush(a) // alerts raised after the agent's last pulse
	}
	n.mu.Lock()
	if n.closed {
		n.mu.Unlock()
		return
	}
	n.closed = true
	close(n.quit)
	for _, t := range n.targets {
		close(t.queue)
	}
	n.mu.Unlock()
	done := make(chan struct{})
	go func() { n.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(wait):
		n.opts.Log.Warn().Msg("notifications still sending at shutdown: left behind")
	}
}

func (n *Notifier) work(t *target) {
	defer n.wg.Done()
	for m := range t.queue {
		err := n.deliver(t, m)
		if err != nil {
			n.opts.Log.Error().Str("agent", m.agent).Str("notify", t.name).Str("error", t.scrub.scrub(err.Error())).
				Msg("notification failed after its retries")
		}
		n.result(m.agent, err)
	}
}

// deliver tries once, then retries with a doubling backoff; closing cuts
// the retries short.
func (n *Notifier) deliver(t *target, m message) error {
	wait := n.opts.Backoff
	var err error
	for attempt := 0; ; attempt++ {
		if err = n.attempt(t, m); err == nil || attempt >= n.opts.Retries {
			return err
		}
		n.opts.Log.Warn().Str("agent", m.agent).Str("notify", t.name).Str("error", t.scrub.scrub(err.Error())).
			Int("attempt", attempt+1).Msg("notification failed; retrying")
		select {
		case <-n.quit:
			return err
		case <-time.After(wait):
		}
		wait *= 2
	}
}

// attempt sends once within the timeout. A send that outlives it keeps
// running (shoutrrr's services cannot all be cancelled), so at most maxHung
// of them are allowed before the target is treated as down. Each attempt
// has its own service instance: some services change their config as they
// send, and a hung attempt must not share it with the next.
func (n *Notifier) attempt(t *target, m message) error {
	if t.hung.Load() >= maxHung {
		return ErrHung
	}
	svc, err := t.router.Locate(t.url)
	if err != nil {
		return err
	}
	done := make(chan error, 1)
	t.hung.Add(1)
	go func() {
		defer t.hung.Add(-1)
		params := types.Params{"title": m.title}
		for k, v := range askParams(t.url, m) {
			params[k] = v
		}
		done <- svc.Send(m.body, &params)
	}()
	select {
	case err := <-done:
		return err
	case <-time.After(n.opts.Timeout):
		return fmt.Errorf("no answer within %s", n.opts.Timeout)
	}
}

func (n *Notifier) result(agent string, err error) {
	if n.opts.OnResult != nil {
		n.opts.OnResult(agent, err)
	}
}
