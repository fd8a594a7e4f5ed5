package fleet

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/eclipse/paho.golang/autopaho"
	"github.com/eclipse/paho.golang/paho"

	"github.com/ai-heart/ai-heart/internal/checks"
	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/state"
	"github.com/ai-heart/ai-heart/internal/testutil"
)

// shippedBroker starts the real Mosquitto on the broker config and ACL
// this project ships in deploy/mosquitto/, as written but for the port and
// the two files' paths, with users (name: password); as returns the mqtt
// section of a watchdog or view logging in as one of them, its client ID
// its user name, as heart.acl asks.
func shippedBroker(t *testing.T, users map[string]string) func(user string) config.MQTT {
	t.Helper()
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join("..", "..", "deploy", "mosquitto", name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	b := testutil.MosquittoConfig(t, read("mosquitto.conf"), read("heart.acl"), users)
	dir := t.TempDir()
	return func(user string) config.MQTT {
		m := mqttConfig(b.URL)
		m.Username, m.ClientID, m.PasswordFile = user, user, filepath.Join(dir, user)
		if err := os.WriteFile(m.PasswordFile, []byte(users[user]+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		return m
	}
}

// rawClient is a peer with broker credentials of its own: it publishes
// whatever it likes on any topic and returns the broker's reason code
// (QoS 1: 0 is accepted, 0x87 not authorized).
func rawClient(t *testing.T, m config.MQTT) func(topic string, payload []byte, qos byte, retain bool) byte {
	t.Helper()
	cc, err := clientConfig(m, m.ClientID)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cm, err := autopaho.NewConnection(ctx, cc)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		dctx, dcancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer dcancel()
		cm.Disconnect(dctx)
		cancel()
	})
	actx, acancel := context.WithTimeout(ctx, 10*time.Second)
	defer acancel()
	if err := cm.AwaitConnection(actx); err != nil {
		t.Fatalf("%s's connection: %v", m.Username, err)
	}
	return func(topic string, payload []byte, qos byte, retain bool) byte {
		pctx, pcancel := context.WithTimeout(ctx, 5*time.Second)
		defer pcancel()
		r, err := cm.Publish(pctx, &paho.Publish{Topic: topic, Payload: payload, QoS: qos, Retain: retain})
		if r != nil {
			if r.ReasonCode < 0x80 {
				return 0 // success, with or without subscribers
			}
			return r.ReasonCode
		}
		if err != nil && qos > 0 {
			t.Fatalf("%s publishing on %s: %v", m.Username, topic, err)
		}
		return 0
	}
}

const notAuthorized = 0x87

// realState is an agent's state with a pulse interval long enough that
// only a forgery could mark it offline during the test.
func realState(agent string) state.State {
	st := testState(agent, 1)
	st.PulseInterval = config.Duration(time.Hour)
	return st
}

// TestACLKeepsPeersOffOtherAgents: against the real Mosquitto on the
// shipped deploy/mosquitto/ files, eve (a peer with credentials of her
// own) cannot speak for another agent. Her state for alice and her
// forged offline on alice's presence topic are refused by the broker, and
// a flood of them (every 50 ms, as the probe did without an ACL, when it
// kept 4 agents offline) leaves alice online; 1,000 fake agents under
// other names are all refused, so the view still takes a newcomer (the
// probe's full view refused 14); a 1 MB message on her own topic never
// leaves the broker; and the view refuses her claim, on her own topic, to
// be alice. Nor can she take over alice's connection with alice's client
// ID (without use_username_as_clientid each takeover sent alice's will,
// offline). The real watchdogs publish, and their wills fire, under the
// same ACL.
func TestACLKeepsPeersOffOtherAgents(t *testing.T) {
	users := map[string]string{"alice": "pw-alice", "bob": "pw-bob", "carol": "pw-carol", "eve": "pw-eve", "viewer": "pw-viewer", "status": "pw-status"}
	as := shippedBroker(t, users)
	v, _ := view(t, as("viewer"))
	var pubs []*Publisher
	for _, name := range []string{"alice", "bob"} {
		p := publisher(t, as(name))
		st := realState(name)
		if name == "alice" {
			st.Checks["inactivity"] = state.CheckState{Level: checks.Error.String()}
		}
		p.State(st)
		pubs = append(pubs, p)
	}
	waitFor(t, "alice in error and bob in the view", 10*time.Second, func() bool {
		a, ok := v.Member("alice")
		_, okb := v.Member("bob")
		return ok && okb && a.Worst == "error" && a.Online
	})
	alicePresence := "heart/_watchdog/" + pubs[0].ID()

	// eve connects with alice's client ID: the broker makes it "eve", so
	// she cannot take over alice's connection (which sent alice's will).
	eve := as("eve")
	eve.ClientID = "alice"
	pub := rawClient(t, eve)
	ok := FromState(realState("alice"), Host(), Host()+"/eve", 99)
	ok.Worst, ok.Checks = "ok", map[string]string{"inactivity": "ok"}
	okAlice, _ := json.Marshal(ok)
	for _, f := range []struct {
		topic   string
		payload []byte
	}{
		{"heart/alice/state", okAlice},
		{"heart/alice/alerts", []byte(`{"agent":"alice","level":"error","check":"x","message":"forged"}`)},
		{alicePresence, []byte(Offline)},
		{"heart/_watchdog/" + Host() + "/bob", []byte(Offline)},
	} {
		if rc := pub(f.topic, f.payload, 1, true); rc != notAuthorized {
			t.Errorf("eve publishing on %s: reason %#x, want %#x not authorized", f.topic, rc, notAuthorized)
		}
	}
	// The viewer reads only.
	if rc := rawClient(t, as("status"))("heart/alice/state", okAlice, 1, true); rc != notAuthorized {
		t.Errorf("a viewer publishing alice's state: reason %#x, want not authorized", rc)
	}

	// The forged-offline flood: every 50 ms for 2 s, at both QoS.
	accepted := 0
	for i := range 40 {
		qos := byte(i % 2)
		if rc := pub(alicePresence, []byte(Offline), qos, true); qos == 1 && rc != notAuthorized {
			accepted++
		}
		time.Sleep(50 * time.Millisecond)
	}
	if accepted > 0 {
		t.Errorf("%d of 20 forged offlines at QoS 1 accepted by the broker, want none", accepted)
	}
	// 1,000 fake agents under other users' names.
	refused := 0
	for i := range 1000 {
		fake := FromState(realState(fmt.Sprintf("fake-%04d", i)), Host(), Host()+"/eve", 1)
		b, _ := json.Marshal(fake)
		if pub("heart/"+fake.Agent+"/state", b, 1, true) == notAuthorized {
			refused++
		}
	}
	if refused != 1000 {
		t.Errorf("%d of 1,000 fake agents refused by the broker, want all", refused)
	}
	// On her own topic: a message over the view's 16 KiB never leaves the
	// broker; a claim to be alice reaches the view, which refuses it.
	if rc := pub("heart/eve/state", []byte(`{"agent":"eve","checks":{"x":"`+strings.Repeat("x", 1<<20)+`"}}`), 1, false); rc == 0 {
		t.Errorf("eve's 1 MB state was accepted by the broker")
	}
	_, bad0 := v.Received()
	if rc := pub("heart/eve/state", okAlice, 1, true); rc != 0 {
		t.Fatalf("eve on her own topic: reason %#x", rc)
	}
	waitFor(t, "the view to refuse eve's claim to be alice", 5*time.Second, func() bool { _, bad := v.Received(); return bad > bad0 })
	// Messages from one client arrive in order: once eve's own state is in,
	// everything she sent before it has been dealt with.
	mine, _ := json.Marshal(FromState(realState("eve"), Host(), Host()+"/eve", 1))
	if rc := pub("heart/eve/state", mine, 1, false); rc != 0 {
		t.Fatalf("eve's own state: reason %#x", rc)
	}
	waitFor(t, "eve's own state", 5*time.Second, func() bool { _, ok := v.Member("eve"); return ok })
	if m, _ := v.Member("alice"); m.Worst != "error" || !m.Online {
		t.Errorf("alice after eve's forgeries: worst %q online %v (%s), want error, online", m.Worst, m.Online, m.Reason)
	}
	if n := pubs[0].Counts().Connects; n != 1 {
		t.Errorf("alice's watchdog connected %d times, want once: it was taken over", n)
	}
	if m, _ := v.Member("bob"); !m.Online {
		t.Errorf("bob after eve's forgeries: offline (%s)", m.Reason)
	}
	if n := len(v.Members()); n != 3 {
		t.Errorf("%d members, want alice, bob and eve: %v", n, v.Members())
	}
	// A real newcomer still gets in.
	publisher(t, as("carol")).State(realState("carol"))
	waitFor(t, "carol, a real agent after the flood", 10*time.Second, func() bool { m, ok := v.Member("carol"); return ok && m.Online })
	// A real watchdog's will is its own to send: bob's clean stop marks him
	// offline at once, through his presence topic.
	pubs[1].Close()
	waitFor(t, "bob's will", 10*time.Second, func() bool {
		m, _ := v.Member("bob")
		return !m.Online && strings.Contains(m.Reason, "its watchdog")
	})
}
