package fleet

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/ai-heart/ai-heart/internal/alert"
	"github.com/ai-heart/ai-heart/internal/checks"
	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/state"
	"github.com/ai-heart/ai-heart/internal/testutil"
)

// waitFor polls cond until it holds or the deadline passes.
func waitFor(t *testing.T, what string, within time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(within)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("no %s within %s", what, within)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func mqttConfig(url string) config.MQTT {
	return config.MQTT{Broker: url, TopicPrefix: "heart", KeepAlive: config.Duration(2 * time.Second)}
}

func testState(agent string, seq int) state.State {
	return state.State{Agent: agent, PulseAt: time.Now(), PulseInterval: config.Duration(time.Second),
		HeartbeatID: "20261123090000", Checks: map[string]state.CheckState{"inactivity": {Level: "ok"}, "introspection": {Level: "warning"}}}
}

// view subscribes a fresh view to the broker; alerts are collected.
func view(t *testing.T, m config.MQTT) (*View, func() []Alert) {
	t.Helper()
	var mu sync.Mutex
	var alerts []Alert
	v := NewView(ViewOptions{Topics: Topics{Prefix: m.TopicPrefix}, OnAlert: func(a Alert) {
		mu.Lock()
		alerts = append(alerts, a)
		mu.Unlock()
	}})
	ctx, cancel := context.WithCancel(context.Background())
	s, err := Subscribe(ctx, m, v, zerolog.Nop())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); <-s.Done() })
	select {
	case <-s.Subscribed():
	case <-time.After(10 * time.Second):
		t.Fatalf("view not subscribed after 10s: %s", s.LastError())
	}
	return v, func() []Alert { mu.Lock(); defer mu.Unlock(); return append([]Alert(nil), alerts...) }
}

func publisher(t *testing.T, m config.MQTT) *Publisher {
	t.Helper()
	p, err := NewPublisher(context.Background(), m, zerolog.Nop())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	return p
}

func TestRetainedStateAndAlerts(t *testing.T) {
	b := testutil.Mosquitto(t, nil)
	m := mqttConfig(b.URL)
	p := publisher(t, m)
	waitFor(t, "connection", 10*time.Second, p.Connected)
	p.State(testState("ann", 1))
	p.State(testState("bob", 1))
	waitFor(t, "two states sent", 5*time.Second, func() bool { return p.Counts().States == 2 })

	// A view that subscribes afterwards gets them retained.
	v, alerts := view(t, m)
	waitFor(t, "both agents in the view", 5*time.Second, func() bool { return len(v.Members()) == 2 })
	ann, _ := v.Member("ann")
	if !ann.Online || ann.Worst != "warning" || ann.Checks["introspection"] != "warning" || ann.Watchdog != p.ID() || ann.Seq != 1 {
		t.Errorf("ann = %+v, want online, worst warning, watchdog %s, seq 1", ann, p.ID())
	}
	p.Alert(alert.Alert{Time: time.Now(), Level: checks.Error, Agent: "ann", Check: "inactivity", Message: "no proof for 10m"})
	waitFor(t, "the alert", 5*time.Second, func() bool { return len(alerts()) == 1 })
	if a := alerts()[0]; a.Agent != "ann" || a.Level != "error" || a.Check != "inactivity" {
		t.Errorf("alert = %+v", a)
	}
}

// The broker goes away: State never waits, superseded states and alerts are
// counted as dropped, and on reconnect the newest state is published at
// once (the restarted broker kept nothing).
func TestBrokerRestartRepublishes(t *testing.T) {
	b := testutil.Mosquitto(t, nil)
	m := mqttConfig(b.URL)
	p := publisher(t, m)
	waitFor(t, "connection", 10*time.Second, p.Connected)
	p.State(testState("ann", 1))
	waitFor(t, "a state sent", 5*time.Second, func() bool { return p.Counts().States == 1 })

	b.Stop()
	waitFor(t, "the publisher to see the broker gone", 10*time.Second, func() bool { return !p.Connected() })
	var slowest time.Duration
	for i := 0; i < 50; i++ {
		start := time.Now()
		p.State(testState("ann", i))
		p.Alert(alert.Alert{Time: time.Now(), Level: checks.Warning, Agent: "ann", Check: "inactivity"})
		slowest = max(slowest, time.Since(start))
	}
	if slowest > 50*time.Millisecond {
		t.Errorf("State+Alert took up to %s with the broker down, want no waiting", slowest)
	}
	if c := p.Counts(); c.DroppedStates != 49 || c.DroppedAlerts != 50 {
		t.Errorf("counts with the broker down = %+v, want 49 dropped states (each replaced but the newest) and 50 dropped alerts", c)
	}

	b.Restart()
	waitFor(t, "a reconnect", 10*time.Second, func() bool { return p.Counts().Connects == 2 })
	v, _ := view(t, m)
	waitFor(t, "the state republished", 5*time.Second, func() bool { _, ok := v.Member("ann"); return ok })
	if ann, _ := v.Member("ann"); ann.Seq != 51 || !ann.Online {
		t.Errorf("republished ann = seq %d online %v, want the newest (seq 51), online", ann.Seq, ann.Online)
	}
}

func TestCredentialsFromFile(t *testing.T) {
	b := testutil.Mosquitto(t, map[string]string{"heart": "s3cret-pw"})
	dir := t.TempDir()
	good, bad := filepath.Join(dir, "good"), filepath.Join(dir, "bad")
	os.WriteFile(good, []byte("s3cret-pw\n"), 0o600)
	os.WriteFile(bad, []byte("wrong-pw\n"), 0o600)

	m := mqttConfig(b.URL)
	m.Username, m.PasswordFile = "heart", good
	p := publisher(t, m)
	waitFor(t, "a connection with the right password", 10*time.Second, p.Connected)

	m.PasswordFile = bad
	var logs syncBuffer
	q, err := NewPublisher(context.Background(), m, zerolog.New(&logs))
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	waitFor(t, "a refusal", 10*time.Second, func() bool { return q.LastError() != "" })
	if e := q.LastError(); !strings.Contains(e, "refused the user name or password") {
		t.Errorf("LastError = %q, want a clear refusal", e)
	}
	q.State(testState("ann", 1)) // does not wait
	if strings.Contains(logs.String(), "wrong-pw") || strings.Contains(logs.String(), "s3cret") {
		t.Errorf("the password appears in the log:\n%s", logs.String())
	}
	if !strings.Contains(logs.String(), "check mqtt.username and mqtt.password_file") {
		t.Errorf("log = %s, want the refusal explained", logs.String())
	}
}

type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
