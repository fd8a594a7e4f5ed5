package fleet

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/eclipse/paho.golang/autopaho"
	"github.com/eclipse/paho.golang/paho"
	"github.com/rs/zerolog"

	"github.com/ai-heart/ai-heart/internal/alert"
	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/state"
)

// maxAlerts bounds the alerts waiting for the sender; past it the oldest
// is dropped (and counted).
const maxAlerts = 256

// publishTimeout bounds one publish, so a broker that stops answering
// holds the sender (never the pulse) for at most this long.
const publishTimeout = 5 * time.Second

// Counts are the publisher's running totals.
type Counts struct {
	States        int64 // states sent
	Alerts        int64 // alerts sent
	DroppedStates int64 // states replaced by a newer one before they could be sent
	DroppedAlerts int64 // alerts not sent: broker down, or too many waiting
	Connects      int64 // connections made (the first and each reconnect)
}

// Publisher sends each agent's pulse state and alerts to the broker beside
// the pulse: State and Alert never wait, a goroutine does the sending.
type Publisher struct {
	topics   Topics
	host     string
	id       string // "<host>/<name>": the presence topic's tail
	log      zerolog.Logger
	cm       *autopaho.ConnectionManager
	wake     chan struct{}
	done     chan struct{}
	stopOnce sync.Once
	cancel   context.CancelFunc

	mu        sync.Mutex
	up        bool
	announce  bool                       // "online" is owed on the presence topic
	latest    map[string]json.RawMessage // agent -> newest state payload
	unsent    map[string]bool            // agents whose newest state is not sent yet
	seq       map[string]uint64
	alerts    []Alert
	counts    Counts
	lastError string
}

// NewPublisher connects to m.Broker in the background (it returns before
// the broker answers, and keeps trying with backoff) and starts the sender.
// A broker that refuses the credentials is logged and retried; the pulse
// goes on either way.
func NewPublisher(ctx context.Context, m config.MQTT, log zerolog.Logger) (*Publisher, error) {
	name := processName()
	clientID := m.ClientID
	if clientID != "" {
		name = TopicLevel(clientID)
	} else {
		clientID = "watchdog-" + Host() + "-" + name
	}
	p := &Publisher{
		topics: Topics{Prefix: m.TopicPrefix}, host: Host(), log: log,
		wake: make(chan struct{}, 1), done: make(chan struct{}),
		latest: map[string]json.RawMessage{}, unsent: map[string]bool{}, seq: map[string]uint64{},
	}
	p.id = p.host + "/" + name
	cc, err := clientConfig(m, clientID)
	if err != nil {
		return nil, err
	}
	cc.WillMessage = &paho.WillMessage{Topic: p.topics.Watchdog(p.id), Payload: []byte(Offline), Retain: true, QoS: 1}
	cc.WillProperties = willProps
	// A clean stop also says offline: DISCONNECT with reason 4 asks the
	// broker to send the will.
	cc.DisconnectPacketBuilder = func() *paho.Disconnect { return &paho.Disconnect{ReasonCode: 0x04} }
	cc.OnConnectionUp = func(*autopaho.ConnectionManager, *paho.Connack) {
		p.mu.Lock()
		p.up, p.announce, p.lastError = true, true, ""
		p.counts.Connects++
		for a := range p.latest {
			p.unsent[a] = true // the broker may have lost them: send at once
		}
		p.mu.Unlock()
		p.log.Info().Str("broker", m.Broker).Str("presence", p.topics.Watchdog(p.id)).Msg("mqtt connected")
		p.poke()
	}
	cc.OnConnectionDown = func() bool {
		p.mu.Lock()
		p.up = false
		p.mu.Unlock()
		p.log.Warn().Str("broker", m.Broker).Msg("mqtt connection lost; publishes are dropped until it is back")
		return true
	}
	cc.OnConnectError = func(err error) {
		msg := connectError(err)
		p.mu.Lock()
		repeat := msg == p.lastError
		p.lastError = msg
		p.mu.Unlock()
		if !repeat { // one line per new reason, not one per retry
			p.log.Error().Str("broker", m.Broker).Str("error", msg).Msg("mqtt: cannot connect; retrying with backoff")
		}
	}
	cctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	p.cancel = cancel
	cm, err := autopaho.NewConnection(cctx, cc)
	if err != nil {
		cancel()
		return nil, fmt.Errorf("mqtt: %w", err)
	}
	p.cm = cm
	go p.send(cctx)
	return p, nil
}

// ID is the process's presence ID, "<host>/<name>".
func (p *Publisher) ID() string { return p.id }

// Counts returns the running totals.
func (p *Publisher) Counts() Counts {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.counts
}

// LastError is why the last connection attempt failed ("" once connected).
func (p *Publisher) LastError() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.lastError
}

// Connected reports whether the broker connection is up.
func (p *Publisher) Connected() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.up
}

// State hands one pulse's state to the sender. It never waits: a state not
// yet sent is replaced by the newer one (and counted as dropped).
func (p *Publisher) State(st state.State) {
	p.mu.Lock()
	p.seq[st.Agent]++
	b, err := json.Marshal(FromState(st, p.host, p.id, p.seq[st.Agent]))
	if err != nil {
		p.mu.Unlock()
		return // plain data: cannot happen
	}
	if p.unsent[st.Agent] {
		p.counts.DroppedStates++
	}
	p.latest[st.Agent], p.unsent[st.Agent] = b, true
	p.mu.Unlock()
	p.poke()
}

// Alert hands an alert to the sender; with the broker down it is dropped.
func (p *Publisher) Alert(a alert.Alert) {
	p.mu.Lock()
	switch {
	case !p.up:
		p.counts.DroppedAlerts++
	case len(p.alerts) >= maxAlerts:
		p.counts.DroppedAlerts++
		p.alerts = append(p.alerts[1:], p.alertOf(a))
	default:
		p.alerts = append(p.alerts, p.alertOf(a))
	}
	p.mu.Unlock()
	p.poke()
}

func (p *Publisher) alertOf(a alert.Alert) Alert {
	return Alert{Time: a.Time, Agent: a.Agent, Host: p.host, Level: a.Level.String(), Check: a.Check, Message: a.Message, HeartbeatID: a.HeartbeatID}
}

func (p *Publisher) poke() {
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

// Close says offline (the will, by a DISCONNECT that asks for it) and stops.
func (p *Publisher) Close() {
	p.stopOnce.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = p.cm.Disconnect(ctx)
		p.cancel()
		<-p.done
	})
}

// send publishes whatever is owed each time it is poked, while connected.
func (p *Publisher) send(ctx context.Context) {
	defer close(p.done)
	for {
		select {
		case <-ctx.Done():
			return
		case <-p.wake:
		}
		p.flush(ctx)
	}
}

// flush sends the presence, then the alerts, then the unsent states. A
// failed publish leaves the rest for the next connection.
func (p *Publisher) flush(ctx context.Context) {
	p.mu.Lock()
	if !p.up {
		p.mu.Unlock()
		return
	}
	announce := p.announce
	p.announce = false
	alerts := p.alerts
	p.alerts = nil
	states := make(map[string]json.RawMessage, len(p.unsent))
	for a := range p.unsent {
		states[a] = p.latest[a]
	}
	clear(p.unsent)
	p.mu.Unlock()

	if announce && p.publish(ctx, p.topics.Watchdog(p.id), []byte(Online), 1, true) != nil {
		p.requeue(true, states)
		return
	}
	for i, a := range alerts {
		b, _ := json.Marshal(a)
		if p.publish(ctx, p.topics.Alerts(a.Agent), b, 1, false) != nil {
			p.mu.Lock()
			p.counts.DroppedAlerts += int64(len(alerts) - i)
			p.mu.Unlock()
			p.requeue(false, states)
			return
		}
		p.mu.Lock()
		p.counts.Alerts++
		p.mu.Unlock()
	}
	for agent, b := range states {
		// QoS 0: a lost state is replaced by the next pulse's, and a
		// reconnect resends them all.
		if p.publish(ctx, p.topics.State(agent), b, 0, true) != nil {
			p.requeue(false, states)
			return
		}
		delete(states, agent)
		p.mu.Lock()
		p.counts.States++
		p.mu.Unlock()
	}
}

// requeue marks what a failed flush did not send as owed again, unless a
// newer state came meanwhile.
func (p *Publisher) requeue(announce bool, states map[string]json.RawMessage) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.announce = p.announce || announce
	for a := range states {
		p.unsent[a] = true
	}
}

func (p *Publisher) publish(ctx context.Context, topic string, payload []byte, qos byte, retain bool) error {
	ctx, cancel := context.WithTimeout(ctx, publishTimeout)
	defer cancel()
	pub := &paho.Publish{Topic: topic, Payload: payload, QoS: qos, Retain: retain}
	if retain {
		pub.Properties = &paho.PublishProperties{MessageExpiry: ptr(uint32(retainedLife))}
	}
	_, err := p.cm.Publish(ctx, pub)
	if err != nil {
		p.log.Debug().Err(err).Str("topic", topic).Msg("mqtt publish failed")
	}
	return err
}
