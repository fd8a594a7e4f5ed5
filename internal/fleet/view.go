package fleet

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/ai-heart/ai-heart/internal/state"
)

// MissedPulses is how many of its own pulse intervals an agent may stay
// silent before a view marks it offline (the Heart paper's rule).
const MissedPulses = 3

// Member is one agent as a view knows it.
type Member struct {
	Pulse
	// LastSeen is when its newest state arrived, on the view's clock (for a
	// retained state: no later than the state's own time).
	LastSeen time.Time
	Online   bool
	Reason   string // why it is offline
}

// ViewOptions configure a View.
type ViewOptions struct {
	Topics Topics
	Now    func() time.Time // nil: time.Now
	// OnChange is called with a member after each state it receives and
	// each change of its presence; OnAlert with each alert. Both run on the
	// receiving goroutine and must not wait.
	OnChange func(Member)
	OnAlert  func(Alert)
}

// View follows every agent publishing under a prefix and judges presence.
// It only reads: nothing it receives acts on an agent.
type View struct {
	o ViewOptions

	mu        sync.Mutex
	members   map[string]*Member
	watchdogs map[string]string // "<host>/<name>" -> Online or Offline
	received  int64
	bad       int64
}

// NewView builds an empty view.
func NewView(o ViewOptions) *View {
	if o.Now == nil {
		o.Now = time.Now
	}
	return &View{o: o, members: map[string]*Member{}, watchdogs: map[string]string{}}
}

// Handle takes one message from the broker.
func (v *View) Handle(topic string, payload []byte, retained bool) {
	kind, name := v.o.Topics.Parse(topic)
	now := v.o.Now()
	var changed []Member
	var al *Alert
	v.mu.Lock()
	v.received++
	switch kind {
	case KindWatchdog:
		status := strings.TrimSpace(string(payload))
		v.watchdogs[name] = status
		if status == Offline {
			for _, m := range v.members {
				if m.Watchdog == name && m.Online {
					m.Online, m.Reason = false, "its watchdog "+name+" went offline"
					changed = append(changed, *m)
				}
			}
		}
	case KindState:
		var p Pulse
		if err := json.Unmarshal(payload, &p); err != nil || p.Agent == "" {
			v.bad++
			break
		}
		seen := now
		if retained && !p.Time.IsZero() && p.Time.Before(now) {
			seen = p.Time // a retained state may be old: judge it by its own time
		}
		m := &Member{Pulse: p, LastSeen: seen, Online: true}
		if v.watchdogs[p.Watchdog] == Offline {
			m.Online, m.Reason = false, "its watchdog "+p.Watchdog+" went offline"
		} else if silent(m, now) {
			m.Online, m.Reason = false, missedReason(m)
		}
		v.members[p.Agent] = m
		changed = append(changed, *m)
	case KindAlerts:
		var a Alert
		if err := json.Unmarshal(payload, &a); err != nil {
			v.bad++
			break
		}
		al = &a
	}
	v.mu.Unlock()
	v.notify(changed)
	if al != nil && v.o.OnAlert != nil {
		v.o.OnAlert(*al)
	}
}

// Sweep marks offline the members silent for MissedPulses intervals.
func (v *View) Sweep() {
	now := v.o.Now()
	var changed []Member
	v.mu.Lock()
	for _, m := range v.members {
		if m.Online && silent(m, now) {
			m.Online, m.Reason = false, missedReason(m)
			changed = append(changed, *m)
		}
	}
	v.mu.Unlock()
	v.notify(changed)
}

func silent(m *Member, now time.Time) bool {
	iv := m.PulseInterval.D()
	return iv > 0 && now.Sub(m.LastSeen) > MissedPulses*iv
}

func missedReason(m *Member) string {
	return fmt.Sprintf("no pulse for %d intervals (%s)", MissedPulses, MissedPulses*m.PulseInterval.D())
}

func (v *View) notify(ms []Member) {
	if v.o.OnChange == nil {
		return
	}
	for _, m := range ms {
		v.o.OnChange(m)
	}
}

// Members lists every agent seen, by name.
func (v *View) Members() []Member {
	v.mu.Lock()
	out := make([]Member, 0, len(v.members))
	for _, m := range v.members {
		out = append(out, *m)
	}
	v.mu.Unlock()
	slices.SortFunc(out, func(a, b Member) int { return strings.Compare(a.Agent, b.Agent) })
	return out
}

// Member returns one agent by name.
func (v *View) Member(agent string) (Member, bool) {
	v.mu.Lock()
	defer v.mu.Unlock()
	m, ok := v.members[agent]
	if !ok {
		return Member{}, false
	}
	return *m, true
}

// Statuses lists the members in the state shape of the page and /metrics.
func (v *View) Statuses() []state.State {
	ms := v.Members()
	out := make([]state.State, len(ms))
	for i, m := range ms {
		out[i] = m.State()
	}
	return out
}

// Received counts the messages handled (and the malformed among them).
func (v *View) Received() (all, bad int64) {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.received, v.bad
}
