package fleet

import (
	"context"
	"encoding/json"
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

// aclFor is the ACL of docs/fleet.md: each watchdog writes only its own agents'
// topics and its own presence topic (its client ID is its user name); the
// fleet view only reads.
func aclFor(host string) string {
	return strings.Join([]string{
		"user alice",
		"topic write heart/alice/state",
		"topic write heart/alice/alerts",
		"topic write heart/_watchdog/" + host + "/alice",
		"user eve",
		"topic write heart/eve/state",
		"topic write heart/eve/alerts",
		"topic write heart/_watchdog/" + host + "/eve",
		"user view",
		"topic read heart/#",
		"",
	}, "\n")
}

// Against a real Mosquitto with the documented ACL, eve (a peer with
// broker credentials of her own) cannot make the fleet view show alice ok
// while she is in error, nor offline: the broker refuses her writes on
// alice's topics, and the view refuses a state on eve's topic that says it
// is alice's (before, members were keyed by the payload's agent, so that
// replaced alice). Nor does a 1 MB message on her own topic reach the view.
func TestACLKeepsPeersOffOtherAgents(t *testing.T) {
	users := map[string]string{"alice": "pw-alice", "eve": "pw-eve", "view": "pw-view"}
	b := testutil.MosquittoACL(t, users, aclFor(Host()))
	dir := t.TempDir()
	as := func(user string) config.MQTT {
		m := mqttConfig(b.URL)
		m.Username, m.ClientID, m.PasswordFile = user, user, filepath.Join(dir, user)
		if err := os.WriteFile(m.PasswordFile, []byte(users[user]+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		return m
	}
	p := publisher(t, as("alice"))
	waitFor(t, "alice's connection", 10*time.Second, p.Connected)
	st := testState("alice", 1)
	st.Checks["inactivity"] = state.CheckState{Level: checks.Error.String()}
	p.State(st)
	waitFor(t, "alice's state sent", 5*time.Second, func() bool { return p.Counts().States == 1 })
	v, _ := view(t, as("view"))
	waitFor(t, "alice in error in the view", 5*time.Second, func() bool { m, ok := v.Member("alice"); return ok && m.Worst == "error" })

	// eve, with a raw client: whatever she likes on any topic.
	cc, err := clientConfig(as("eve"), "eve")
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
		t.Fatalf("eve's connection: %v", err)
	}
	ok := FromState(testState("alice", 1), Host(), Host()+"/eve", 99)
	ok.Worst, ok.Checks = "ok", map[string]string{"inactivity": "ok"}
	okAlice, _ := json.Marshal(ok)
	pub := func(topic string, payload []byte, retain bool) (byte, error) {
		pctx, pcancel := context.WithTimeout(ctx, 5*time.Second)
		defer pcancel()
		r, err := cm.Publish(pctx, &paho.Publish{Topic: topic, Payload: payload, QoS: 1, Retain: retain})
		if r == nil {
			return 0, err
		}
		return r.ReasonCode, err
	}
	const notAuthorized = 0x87
	for _, f := range []struct {
		topic   string
		payload []byte
	}{
		{"heart/alice/state", okAlice},                 // alice's state, ok
		{"heart/_watchdog/" + p.ID(), []byte(Offline)}, // alice's watchdog's will
	} {
		if rc, err := pub(f.topic, f.payload, true); rc != notAuthorized {
			t.Errorf("eve publishing on %s: reason %#x (%v), want %#x not authorized", f.topic, rc, err, notAuthorized)
		}
	}
	// On her own topic the broker lets her: the view refuses it.
	_, bad0 := v.Received()
	if rc, err := pub("heart/eve/state", okAlice, true); err != nil {
		t.Fatalf("eve on her own topic: reason %#x: %v", rc, err)
	}
	waitFor(t, "the view to refuse eve's claim to be alice", 5*time.Second, func() bool { _, bad := v.Received(); return bad > bad0 })
	if _, err := pub("heart/eve/state", []byte(`{"agent":"eve","checks":{"x":"`+strings.Repeat("x", 1<<20)+`"}}`), false); err != nil {
		t.Fatalf("eve's 1 MB state: %v", err)
	}
	mine := FromState(testState("eve", 1), Host(), Host()+"/eve", 1)
	mineB, _ := json.Marshal(mine)
	if _, err := pub("heart/eve/state", mineB, false); err != nil {
		t.Fatal(err)
	}
	// Messages from one client arrive in order: once eve's own state is
	// in, everything she sent before it has been dealt with.
	waitFor(t, "eve's own state", 5*time.Second, func() bool { _, ok := v.Member("eve"); return ok })
	if m, _ := v.Member("alice"); m.Worst != "error" || !m.Online {
		t.Errorf("alice after eve's forgeries: worst %q online %v (%s), want error, online", m.Worst, m.Online, m.Reason)
	}
	if m, _ := v.Member("eve"); len(m.Checks["x"]) > 0 {
		t.Errorf("eve's 1 MB state reached the view")
	}
	if n := len(v.Members()); n != 2 {
		t.Errorf("%d members, want alice and eve", n)
	}
}
