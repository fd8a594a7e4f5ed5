package fleet

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/config"
)

func pulseJSON(t *testing.T, agent, watchdog string, at time.Time, iv time.Duration) []byte {
	t.Helper()
	b, err := json.Marshal(Pulse{Agent: agent, Watchdog: watchdog, Time: at, PulseInterval: config.Duration(iv), Worst: "ok"})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestViewPresence(t *testing.T) {
	t0 := time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)
	now := t0
	tp := Topics{Prefix: "heart"}
	var changes []Member
	v := NewView(ViewOptions{Topics: tp, Now: func() time.Time { return now }, OnChange: func(m Member) { changes = append(changes, m) }})
	v.Handle(tp.Watchdog("h1/10"), []byte(Online), true)
	v.Handle(tp.State("a"), pulseJSON(t, "a", "h1/10", t0, 10*time.Second), false)
	v.Handle(tp.State("b"), pulseJSON(t, "b", "h1/11", t0, time.Minute), false)

	tests := []struct {
		name       string
		after      time.Duration
		wantA      bool
		wantB      bool
		wantReason string
	}{
		{"just under 3 pulses", 30 * time.Second, true, true, ""},
		{"just over 3 pulses", 30*time.Second + time.Millisecond, false, true, "no pulse for 3 intervals (30s)"},
	}
	for _, tt := range tests {
		now = t0.Add(tt.after)
		v.Sweep()
		a, _ := v.Member("a")
		b, _ := v.Member("b")
		if a.Online != tt.wantA || b.Online != tt.wantB || a.Reason != tt.wantReason {
			t.Errorf("%s: a = %v %q, b = %v; want %v %q, %v", tt.name, a.Online, a.Reason, b.Online, tt.wantA, tt.wantReason, tt.wantB)
		}
	}

	// The will of b's watchdog marks b offline at once.
	v.Handle(tp.Watchdog("h1/11"), []byte(Offline), true)
	if b, _ := v.Member("b"); b.Online || b.Reason != "its watchdog h1/11 went offline" {
		t.Errorf("after the will: b = %v %q, want offline by the will", b.Online, b.Reason)
	}
	// A new state after the watchdog is back brings it online.
	v.Handle(tp.Watchdog("h1/11"), []byte(Online), true)
	v.Handle(tp.State("b"), pulseJSON(t, "b", "h1/11", now, time.Minute), false)
	if b, _ := v.Member("b"); !b.Online {
		t.Errorf("b after a new state = offline (%s), want online", b.Reason)
	}
	if len(changes) != 5 {
		t.Errorf("%d changes, want 5 (2 states, 1 missed, 1 will, 1 state)", len(changes))
	}
}

func TestViewRetainedOldStateIsOffline(t *testing.T) {
	now := time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)
	tp := Topics{Prefix: "heart"}
	v := NewView(ViewOptions{Topics: tp, Now: func() time.Time { return now }})
	v.Handle(tp.State("old"), pulseJSON(t, "old", "h/1", now.Add(-time.Hour), 10*time.Second), true)
	v.Handle(tp.State("new"), pulseJSON(t, "new", "h/1", now.Add(-time.Second), 10*time.Second), true)
	if m, _ := v.Member("old"); m.Online || !m.LastSeen.Equal(now.Add(-time.Hour)) {
		t.Errorf("retained hour-old state: online=%v last seen %v, want offline, seen an hour ago", m.Online, m.LastSeen)
	}
	if m, _ := v.Member("new"); !m.Online {
		t.Errorf("retained fresh state: offline (%s), want online", m.Reason)
	}
}

func TestTopics(t *testing.T) {
	tp := Topics{Prefix: "heart"}
	tests := []struct {
		topic    string
		wantKind int
		wantName string
	}{
		{"heart/a/state", KindState, "a"},
		{"heart/a/alerts", KindAlerts, "a"},
		{"heart/_watchdog/host/123", KindWatchdog, "host/123"},
		{"heart/a/b/state", KindOther, ""},
		{"other/a/state", KindOther, ""},
	}
	for _, tt := range tests {
		if k, n := tp.Parse(tt.topic); k != tt.wantKind || n != tt.wantName {
			t.Errorf("Parse(%q) = %d %q, want %d %q", tt.topic, k, n, tt.wantKind, tt.wantName)
		}
	}
	if got := tp.State("a+b#c/d"); got != "heart/a%2Bb%23c%2Fd/state" {
		t.Errorf("State(a+b#c/d) = %q", got)
	}
	// Names that differ get topics that differ: with _ for each of + # /,
	// these three were one topic.
	seen := map[string]string{}
	for _, name := range []string{"team/+x", "team_#x", "team__x", "team%2F%2Bx", "team\x1bx", "team_x", "alice"} {
		topic := tp.State(name)
		if other, dup := seen[topic]; dup {
			t.Errorf("%q and %q share the topic %s", name, other, topic)
		}
		seen[topic] = name
		if k, level := tp.Parse(topic); k != KindState || level != TopicLevel(name) || strings.ContainsAny(level, "+#/") {
			t.Errorf("%q: topic %s parses as %d %q", name, topic, k, level)
		}
	}
	if got := tp.State("alice"); got != "heart/alice/state" {
		t.Errorf("a plain name changed: %s", got)
	}
}
