package fleet

import (
	"context"
	"fmt"
	"net/url"
	"sync"
	"time"

	"github.com/eclipse/paho.golang/autopaho"
	"github.com/eclipse/paho.golang/paho"
	"github.com/rs/zerolog"

	"github.com/ai-heart/ai-heart/internal/config"
)

// sweepEvery is how often a subscriber looks for silent agents; presence
// is judged this much late at worst.
const sweepEvery = 250 * time.Millisecond

// Subscriber feeds a View from a broker: it subscribes to <prefix>/# on
// each connection and sweeps for silent agents.
type Subscriber struct {
	view *View
	cm   *autopaho.ConnectionManager
	done chan struct{}

	mu         sync.Mutex
	subscribed chan struct{} // closed once the first SUBACK is in
	lastError  string
}

// Subscribe connects v to m.Broker in the background and keeps it fed
// until ctx ends. The view's topics are m's.
func Subscribe(ctx context.Context, m config.MQTT, v *View, log zerolog.Logger) (*Subscriber, error) {
	clientID := m.ClientID
	if clientID == "" {
		clientID = fmt.Sprintf("watchdog-fleet-%s-%s", Host(), processName())
	}
	cc, err := clientConfig(m, clientID)
	if err != nil {
		return nil, err
	}
	// The broker drops for us what a view would refuse anyway (MQTT 5
	// Maximum Packet Size), so a 20 MB message is never even read; the
	// margin is for the topic and properties.
	cc.ConnectPacketBuilder = func(cp *paho.Connect, _ *url.URL) (*paho.Connect, error) {
		if cp.Properties == nil {
			cp.Properties = &paho.ConnectProperties{}
		}
		cp.Properties.MaximumPacketSize = ptr(uint32(MaxPayload + 4096))
		return cp, nil
	}
	s := &Subscriber{view: v, done: make(chan struct{}), subscribed: make(chan struct{})}
	filter := v.o.Topics.All()
	cc.OnPublishReceived = []func(paho.PublishReceived) (bool, error){func(pr paho.PublishReceived) (bool, error) {
		v.Handle(pr.Packet.Topic, pr.Packet.Payload, pr.Packet.Retain)
		return true, nil
	}}
	cc.OnConnectionUp = func(cm *autopaho.ConnectionManager, _ *paho.Connack) {
		log.Info().Str("broker", m.Broker).Str("topics", filter).Msg("mqtt connected; following the fleet")
		go func() { // OnConnectionUp must not block
			sctx, cancel := context.WithTimeout(ctx, 10*time.Second)
			defer cancel()
			if _, err := cm.Subscribe(sctx, &paho.Subscribe{Subscriptions: []paho.SubscribeOptions{{Topic: filter, QoS: 1}}}); err != nil {
				log.Error().Err(err).Str("topics", filter).Msg("mqtt subscribe failed")
				return
			}
			s.mu.Lock()
			select {
			case <-s.subscribed:
			default:
				close(s.subscribed)
			}
			s.lastError = ""
			s.mu.Unlock()
		}()
	}
	cc.OnConnectError = func(err error) {
		msg := connectError(err)
		s.mu.Lock()
		repeat := msg == s.lastError
		s.lastError = msg
		s.mu.Unlock()
		if !repeat {
			log.Error().Str("broker", m.Broker).Str("error", msg).Msg("mqtt: cannot connect; retrying with backoff")
		}
	}
	cm, err := autopaho.NewConnection(ctx, cc)
	if err != nil {
		return nil, fmt.Errorf("mqtt: %w", err)
	}
	s.cm = cm
	go func() {
		defer close(s.done)
		t := time.NewTicker(sweepEvery)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				dctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
				_ = cm.Disconnect(dctx)
				cancel()
				return
			case <-t.C:
				v.Sweep()
			}
		}
	}()
	return s, nil
}

// Subscribed is closed once the first subscription is acknowledged; the
// retained states follow it at once.
func (s *Subscriber) Subscribed() <-chan struct{} { return s.subscribed }

// LastError is why the last connection attempt failed.
func (s *Subscriber) LastError() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lastError
}

// Done is closed when the subscriber has stopped (its context ended).
func (s *Subscriber) Done() <-chan struct{} { return s.done }
