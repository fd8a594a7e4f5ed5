package fleet

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/cost"
	"github.com/ai-heart/ai-heart/internal/state"
)

func statePayload(t *testing.T, p Pulse) []byte {
	t.Helper()
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// A member is its topic: a state on heart/eve/state that says it is
// alice's is refused, so a peer allowed only its own topics (the broker's
// ACL) cannot replace alice's error with ok.
func TestViewKeysMembersByTopic(t *testing.T) {
	now := time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)
	tp := Topics{Prefix: "heart"}
	v := NewView(ViewOptions{Topics: tp, Now: func() time.Time { return now }})
	alice := Pulse{Agent: "alice", Watchdog: "h/1", Time: now, PulseInterval: config.Duration(10 * time.Second), Worst: "error"}
	v.Handle(tp.State("alice"), statePayload(t, alice), false)
	forged := alice
	forged.Worst, forged.Watchdog = "ok", "h/2"
	v.Handle(tp.State("eve"), statePayload(t, forged), false)
	if m, _ := v.Member("alice"); m.Worst != "error" {
		t.Errorf("alice after eve's forgery on eve's topic: worst %q, want error", m.Worst)
	}
	if n := len(v.Members()); n != 1 {
		t.Errorf("%d members, want 1 (the forgery refused)", n)
	}
	if _, bad := v.Received(); bad != 1 {
		t.Errorf("%d refused, want 1", bad)
	}
	// An alert counts only on its own agent's topic, for a known agent.
	var alerts []Alert
	v.o.OnAlert = func(a Alert) { alerts = append(alerts, a) }
	a, _ := json.Marshal(Alert{Agent: "alice", Level: "error", Check: "inactivity"})
	v.Handle(tp.Alerts("eve"), a, false)
	b, _ := json.Marshal(Alert{Agent: "nobody", Level: "error", Check: "inactivity"})
	v.Handle(tp.Alerts("nobody"), b, false)
	v.Handle(tp.Alerts("alice"), a, false)
	if len(alerts) != 1 || alerts[0].Agent != "alice" {
		t.Errorf("alerts = %+v, want only alice's on her own topic", alerts)
	}
}

// A will says the watchdog's connection is gone; a live state received
// after it proves the watchdog is back. A forged retained will kept alice
// offline for good; now her next pulse brings her back.
func TestViewLiveStateOutlivesAWill(t *testing.T) {
	now := time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)
	tp := Topics{Prefix: "heart"}
	v := NewView(ViewOptions{Topics: tp, Now: func() time.Time { return now }})
	v.Handle(tp.Watchdog("h/1"), []byte(Offline), true) // forged, retained
	alice := Pulse{Agent: "alice", Watchdog: "h/1", Time: now, PulseInterval: config.Duration(10 * time.Second), Worst: "ok"}
	v.Handle(tp.State("alice"), statePayload(t, alice), true)
	if m, _ := v.Member("alice"); m.Online {
		t.Errorf("retained state under a retained will: online, want offline")
	}
	now = now.Add(10 * time.Second)
	alice.Time = now
	v.Handle(tp.State("alice"), statePayload(t, alice), false)
	if m, _ := v.Member("alice"); !m.Online {
		t.Errorf("a live state after the will: offline (%s), want online", m.Reason)
	}
	// A will after it still counts at once.
	v.Handle(tp.Watchdog("h/1"), []byte(Offline), false)
	if m, _ := v.Member("alice"); m.Online {
		t.Errorf("a will after the live state: online, want offline")
	}
	// A presence payload that is neither online nor offline is refused.
	v.Handle(tp.Watchdog("h/9"), []byte(strings.Repeat("x", 100)), false)
	if _, bad := v.Received(); bad != 1 {
		t.Errorf("%d refused, want the odd presence payload refused", bad)
	}
}

// What a view keeps is bounded: a payload over MaxPayload is refused, past
// MaxMembers a new agent takes the place of the longest-silent offline one
// or is refused, and a member silent for EvictAfter is forgotten.
func TestViewBounds(t *testing.T) {
	t0 := time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)
	now := t0
	tp := Topics{Prefix: "heart"}
	v := NewView(ViewOptions{Topics: tp, Now: func() time.Time { return now }, MaxMembers: 3})
	state := func(agent string, iv time.Duration) {
		v.Handle(tp.State(agent), statePayload(t, Pulse{Agent: agent, Watchdog: "h/1", Time: now, PulseInterval: config.Duration(iv), Worst: "ok"}), false)
	}
	big := Pulse{Agent: "big", Watchdog: "h/1", Time: now, Worst: "ok", Checks: map[string]string{"x": strings.Repeat("x", MaxPayload)}}
	v.Handle(tp.State("big"), statePayload(t, big), false)
	if _, ok := v.Member("big"); ok {
		t.Errorf("a state of %d bytes was taken, want refused over %d", len(statePayload(t, big)), MaxPayload)
	}
	state("a", time.Second)
	state("b", time.Minute)
	state("c", time.Minute)
	state("d", time.Minute) // full, nobody offline: refused
	if _, ok := v.Member("d"); ok || len(v.Members()) != 3 {
		t.Errorf("members %v, want a, b, c (d refused: the view is full)", names(v.Members()))
	}
	now = now.Add(4 * time.Second) // a misses 3 pulses
	v.Sweep()
	state("d", time.Minute)
	if _, ok := v.Member("a"); ok {
		t.Errorf("members %v, want offline a replaced by d", names(v.Members()))
	}
	if _, ok := v.Member("d"); !ok {
		t.Errorf("members %v, want d in a's place", names(v.Members()))
	}
	if _, bad := v.Received(); bad != 2 {
		t.Errorf("%d refused, want 2 (big, the first d)", bad)
	}
	now = now.Add(EvictAfter) // b silent just over EvictAfter, d just at it
	state("c", time.Minute)
	v.Sweep()
	if got := names(v.Members()); got != "c,d" {
		t.Errorf("after %s of silence: members %s, want c, d (b forgotten)", EvictAfter, got)
	}
	now = now.Add(time.Millisecond)
	v.Sweep()
	if got := names(v.Members()); got != "c" {
		t.Errorf("just over %s of silence: members %s, want c (d forgotten)", EvictAfter, got)
	}
	// Presence topics are bounded the same way.
	for i := range 10 {
		v.Handle(tp.Watchdog(fmt.Sprintf("h/%d", i)), []byte(Online), true)
	}
	v.mu.Lock()
	n := len(v.watchdogs)
	v.mu.Unlock()
	if n > 3 {
		t.Errorf("%d presence topics kept, want at most MaxMembers (3)", n)
	}
}

func names(ms []Member) string {
	var s []string
	for _, m := range ms {
		s = append(s, m.Agent)
	}
	return strings.Join(s, ",")
}

// What the agent writes (deep work declarations) is trimmed in the pulse,
// so however much it declares, its state stays under MaxPayload.
func TestFromStateStaysUnderMaxPayload(t *testing.T) {
	st := testState("alice", 1)
	for i := range 100 {
		st.DeepWork = append(st.DeepWork, state.DeepWork{ID: "20261123090000", Mode: "strict", Activity: fmt.Sprintf("%d %s", i, strings.Repeat("é", 5000))})
	}
	b, err := json.Marshal(FromState(st, "h", "h/1", 1))
	if err != nil {
		t.Fatal(err)
	}
	if len(b) > MaxPayload/2 {
		t.Errorf("pulse of %d bytes, want at most half of MaxPayload (%d)", len(b), MaxPayload)
	}
	p := FromState(st, "h", "h/1", 1)
	if !utf8.ValidString(p.DeepWork[0].Activity) || !strings.HasPrefix(p.DeepWork[0].Activity, "0 é") {
		t.Errorf("trimmed activity %q, want valid UTF-8 starting as the original", p.DeepWork[0].Activity)
	}
}

// What a fleet page sorts by (work, the client's mode, a spent budget)
// crosses MQTT and comes back as the state the page reads.
func TestPulseCarriesWhatTheGridSortsBy(t *testing.T) {
	st := testState("alice", 1)
	st.Work = state.Work{Mode: state.WorkWorking}
	st.Client = &state.Client{Mode: state.ClientWaitingForYou, Asking: "permission", LastTool: "Bash"}
	st.Cost = &cost.Summary{Budget: &cost.BudgetState{Spent: true, Reason: "1200 of 1000 tokens used today"}}
	b, err := json.Marshal(FromState(st, "h", "h/1", 1))
	if err != nil {
		t.Fatal(err)
	}
	var p Pulse
	if err := json.Unmarshal(b, &p); err != nil {
		t.Fatal(err)
	}
	got := p.State()
	if got.Work.Mode != state.WorkWorking || got.Client == nil || got.Client.Mode != state.ClientWaitingForYou ||
		got.Cost == nil || got.Cost.Budget == nil || !got.Cost.Budget.Spent {
		t.Fatalf("from %s back to work %+v, client %+v, cost %+v", b, got.Work, got.Client, got.Cost)
	}
	if got.Client.LastTool != "" || got.Client.Asking != "" {
		t.Errorf("the pulse carried the client's tool or question: %s", b)
	}
	// An agent with no hooks and no budget says neither.
	quiet, err := json.Marshal(FromState(testState("bob", 1), "h", "h/1", 1))
	if err != nil {
		t.Fatal(err)
	}
	if q := string(quiet); strings.Contains(q, `"client"`) || strings.Contains(q, `"budget_spent"`) {
		t.Errorf("a quiet agent's pulse %s", q)
	}
	if s := mustState(t, quiet); s.Client != nil || s.Cost != nil {
		t.Errorf("a quiet agent came back with client %+v, cost %+v", s.Client, s.Cost)
	}
}

func mustState(t *testing.T, b []byte) state.State {
	t.Helper()
	var p Pulse
	if err := json.Unmarshal(b, &p); err != nil {
		t.Fatal(err)
	}
	return p.State()
}
