package web

import (
	"fmt"
	"io"
	"sync"
)

// event is one Server-Sent Event.
type event struct {
	name string
	data []byte
}

func writeEvent(w io.Writer, e event) {
	fmt.Fprintf(w, "event: %s\ndata: %s\n\n", e.name, e.data)
}

// hub fans events out to subscribers. Each has a bounded queue; a reader too
// slow to keep up is dropped (its browser reconnects and gets a fresh
// picture) so a publisher, the pulse, never waits on a page.
type hub struct {
	mu   sync.Mutex
	subs map[chan event]struct{}
}

// subscriberQueue holds a whole round of a 1,000-agent fleet's pulses (a
// fleet view reconnecting to MQTT hears them all at once); the events'
// bytes are shared by every subscriber, so a slot costs a few words.
const subscriberQueue = 2048

func newHub() *hub { return &hub{subs: map[chan event]struct{}{}} }

// listening reports whether any page is subscribed: with none, a pulse's
// event is not worth encoding (a page that subscribes later starts from
// the current status).
func (h *hub) listening() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.subs) > 0
}

func (h *hub) subscribe() (<-chan event, func()) {
	ch := make(chan event, subscriberQueue)
	h.mu.Lock()
	h.subs[ch] = struct{}{}
	h.mu.Unlock()
	return ch, func() {
		h.mu.Lock()
		defer h.mu.Unlock()
		if _, ok := h.subs[ch]; ok {
			delete(h.subs, ch)
			close(ch)
		}
	}
}

func (h *hub) send(e event) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for ch := range h.subs {
		select {
		case ch <- e:
		default:
			delete(h.subs, ch)
			close(ch)
		}
	}
}
