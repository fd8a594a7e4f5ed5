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

// Bounds on what a view keeps of what any peer on the broker sends: a
// flood of fake agents or a 20 MB field once grew it without limit.
const (
	// MaxPayload bounds one state, alert or presence message, in bytes;
	// a pulse is well under 2 KiB (FromState trims what the agent writes).
	MaxPayload = 16 << 10
	// DefaultMaxMembers bounds the agents followed, and as many presence
	// topics.
	DefaultMaxMembers = 1000
	// EvictAfter forgets a member silent this long: the broker lets its
	// retained state expire then too (retainedLife).
	EvictAfter = retainedLife * time.Second
)

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
	// MaxMembers bounds the agents followed; 0 = DefaultMaxMembers.
	MaxMembers int
}

// View follows every agent publishing under a prefix and judges presence.
// It only reads: nothing it receives acts on an agent. A member is keyed by
// its topic, never by what the payload says, so a broker ACL that lets each
// watchdog write only its own topics makes it unable to speak for others.
type View struct {
	o ViewOptions

	mu        sync.Mutex
	members   map[string]*Member // by topic level
	watchdogs map[string]string  // "<host>/<name>" -> Online or Offline
	received  int64
	bad       int64
}

// NewView builds an empty view.
func NewView(o ViewOptions) *View {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.MaxMembers <= 0 {
		o.MaxMembers = DefaultMaxMembers
	}
	return &View{o: o, members: map[string]*Member{}, watchdogs: map[string]string{}}
}

// Handle takes one message from the broker. What is malformed, too big,
// on another agent's topic or past the bounds is refused (and counted).
func (v *View) Handle(topic string, payload []byte, retained bool) {
	kind, name := v.o.Topics.Parse(topic)
	now := v.o.Now()
	var changed []Member
	var al *Alert
	v.mu.Lock()
	v.received++
	if len(payload) > MaxPayload {
		kind = KindOther
		v.bad++
	}
	switch kind {
	case KindWatchdog:
		status := strings.TrimSpace(string(payload))
		switch _, known := v.watchdogs[name]; {
		case status == "":
			delete(v.watchdogs, name) // a retained message cleared
		case status != Online && status != Offline:
			v.bad++
		case !known && len(v.watchdogs) >= v.o.MaxMembers && !v.forgetWatchdog():
			v.bad++
		default:
			v.watchdogs[name] = status
		}
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
		if err := json.Unmarshal(payload, &p); err != nil || p.Agent == "" || TopicLevel(p.Agent) != name {
			v.bad++ // malformed, or speaking for another agent
			break
		}
		if _, known := v.members[name]; !known && len(v.members) >= v.o.MaxMembers && !v.forgetMember() {
			v.bad++
			break
		}
		seen := now
		if retained && !p.Time.IsZero() && p.Time.Before(now) {
			seen = p.Time // a retained state may be old: judge it by its own time
		}
		m := &Member{Pulse: p, LastSeen: seen, Online: true}
		// A will counts against retained states; a live one shows the
		// watchdog back (it announces online before any state), so a
		// forged will cannot keep an agent offline past its next pulse.
		if retained && v.watchdogs[p.Watchdog] == Offline {
			m.Online, m.Reason = false, "its watchdog "+p.Watchdog+" went offline"
		} else if silent(m, now) {
			m.Online, m.Reason = false, missedReason(m)
		}
		v.members[name] = m
		changed = append(changed, *m)
	case KindAlerts:
		var a Alert
		if err := json.Unmarshal(payload, &a); err != nil || TopicLevel(a.Agent) != name || v.members[name] == nil {
			v.bad++ // malformed, for another agent, or for one not followed (no label for every name sent)
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

// Sweep marks offline the members silent for MissedPulses intervals and
// forgets those silent for EvictAfter.
func (v *View) Sweep() {
	now := v.o.Now()
	var changed []Member
	v.mu.Lock()
	for k, m := range v.members {
		if now.Sub(m.LastSeen) > EvictAfter {
			delete(v.members, k)
			continue
		}
		if m.Online && silent(m, now) {
			m.Online, m.Reason = false, missedReason(m)
			changed = append(changed, *m)
		}
	}
	v.mu.Unlock()
	v.notify(changed)
}

// forgetMember makes room for a new agent in a full view: the offline
// member silent the longest goes. With every member online there is none.
func (v *View) forgetMember() bool {
	var oldest string
	for k, m := range v.members {
		if !m.Online && (oldest == "" || m.LastSeen.Before(v.members[oldest].LastSeen)) {
			oldest = k
		}
	}
	if oldest == "" {
		return false
	}
	delete(v.members, oldest)
	return true
}

// forgetWatchdog makes room for a new presence topic: an offline one goes.
func (v *View) forgetWatchdog() bool {
	for k, s := range v.watchdogs {
		if s == Offline {
			delete(v.watchdogs, k)
			return true
		}
	}
	return false
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
	m, ok := v.members[TopicLevel(agent)]
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

// Received counts the messages handled (and those refused among them:
// malformed, too big, on another agent's topic, or past the bounds).
func (v *View) Received() (all, bad int64) {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.received, v.bad
}
