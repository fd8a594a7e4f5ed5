package checks

import (
	"strings"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/lang"
	"github.com/ai-heart/ai-heart/internal/scan"
	"github.com/ai-heart/ai-heart/internal/testutil"
)

func TestFeedback(t *testing.T) {
	item := func(n string) scan.InboxItem {
		return scan.InboxItem{Rel: "feedbackbox/" + n, Name: n, Interrupt: strings.HasPrefix(n, "interrupt.")}
	}
	tests := []struct {
		name    string
		items   []scan.InboxItem
		want    Level
		actions []Action
	}{
		{"empty", nil, OK, nil},
		{"one file", []scan.InboxItem{item("a.md")}, Info, nil},
		{"interrupt", []scan.InboxItem{item("interrupt.b.md")}, Info,
			[]Action{{Kind: StripInterrupt, Rel: "feedbackbox/interrupt.b.md", NewRel: "feedbackbox/b.md"}}},
		{"interrupt whose plain name exists", []scan.InboxItem{item("b.md"), item("interrupt.b.md")}, Info,
			[]Action{{Kind: StripInterrupt, Rel: "feedbackbox/interrupt.b.md", NewRel: "feedbackbox/b-2.md"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, _ := Evaluate(now, scan.Snapshot{Feedback: tc.items}, cfg, State{})
			f, _ := r.Finding(Feedback)
			if f.Level != tc.want {
				t.Errorf("Evaluate(%s) = %v, want %v", tc.name, f.Level, tc.want)
			}
			if len(r.Actions) != len(tc.actions) || (len(tc.actions) > 0 && r.Actions[0] != tc.actions[0]) {
				t.Errorf("Evaluate(%s) actions = %+v, want %+v", tc.name, r.Actions, tc.actions)
			}
			for _, it := range tc.items {
				if !strings.Contains(f.Notice, strings.TrimPrefix(it.Name, "interrupt.")) || !strings.Contains(f.Notice, "processed.") {
					t.Errorf("Evaluate(%s) notice %q does not name %s and say how to mark it processed", tc.name, f.Notice, it.Name)
				}
				// One procedure everywhere, so the agent learns one: the tool hands
				// the file over and marks it; nothing is renamed by hand.
				if !strings.Contains(f.Notice, "check_and_process_item") || strings.Contains(f.Notice, "rename it") {
					t.Errorf("Evaluate(%s) notice %q: want check_and_process_item, not a rename by hand", tc.name, f.Notice)
				}
			}
		})
	}
}

func TestToolRestriction(t *testing.T) {
	m := time.Minute
	marker := func(kind string, since time.Duration, until time.Time) scan.Marker {
		return scan.Marker{Kind: kind, Tool: "web_search", Rel: "stats/" + kind + "/web_search", Since: now.Add(-since), Until: until}
	}
	tests := []struct {
		name   string
		m      scan.Marker
		want   Level
		remove bool
	}{
		{"until 1s ahead", marker(scan.Cooldown, m, now.Add(sec)), Info, false},
		{"until now", marker(scan.Cooldown, m, now), OK, true},
		{"cooldown default, just under 10m", marker(scan.Cooldown, 10*m-sec, time.Time{}), Info, false},
		{"cooldown default, 10m", marker(scan.Cooldown, 10*m, time.Time{}), OK, true},
		{"lock default, just under 60m", marker(scan.Lock, 60*m-sec, time.Time{}), Info, false},
		{"lock default, 60m", marker(scan.Lock, 60*m, time.Time{}), OK, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, _ := Evaluate(now, scan.Snapshot{Restrictions: []scan.Marker{tc.m}}, cfg, State{})
			if got := r.Level(ToolRestriction); got != tc.want {
				t.Errorf("Evaluate(%s) = %v, want %v", tc.name, got, tc.want)
			}
			removed := len(r.Actions) == 1 && r.Actions[0] == Action{Kind: RemoveMarker, Rel: tc.m.Rel}
			if removed != tc.remove || (!tc.remove && len(r.Actions) > 0) {
				t.Errorf("Evaluate(%s) actions = %+v, want removal %v", tc.name, r.Actions, tc.remove)
			}
		})
	}
}

// Urgent feedback is marked in the agent's language: （緊急） inside
// Japanese, never "(urgent)", and the names joined with 、.
func TestFeedbackNoticeInJapanese(t *testing.T) {
	c := cfg
	c.Language = lang.Japanese
	items := []scan.InboxItem{
		{Rel: "feedbackbox/a.md", Name: "a.md"},
		{Rel: "feedbackbox/interrupt.b.md", Name: "interrupt.b.md", Interrupt: true},
	}
	r, _ := Evaluate(now, scan.Snapshot{Feedback: items}, c, State{})
	f, _ := r.Finding(Feedback)
	if !strings.Contains(f.Notice, "feedbackbox/a.md、feedbackbox/b.md（緊急）") {
		t.Errorf("notice %q", f.Notice)
	}
	testutil.CheckJapanese(t, "feedback notice", f.Notice)
	if !strings.Contains(f.Notice, "すぐに対応してください") {
		t.Errorf("notice %q: the urgency's instruction is lost", f.Notice)
	}
	r, _ = Evaluate(now, scan.Snapshot{Feedback: items}, cfg, State{})
	if f, _ := r.Finding(Feedback); !strings.Contains(f.Notice, "feedbackbox/b.md (urgent)") || !strings.Contains(f.Notice, "Take the urgent ones now, before your current work.") {
		t.Errorf("English notice %q", f.Notice)
	}
	// Urgent feedback already handed over (its prefix gone) keeps both
	// its mark and what urgency asks: the inbox keeps only the newest
	// prompt, and the urgent wakeup's may be gone.
	c = cfg
	c.Urgent = []string{"feedbackbox/b.md"}
	r, _ = Evaluate(now, scan.Snapshot{Feedback: []scan.InboxItem{{Rel: "feedbackbox/b.md", Name: "b.md"}}}, c, State{})
	if f, _ := r.Finding(Feedback); !strings.Contains(f.Notice, "(urgent)") || !strings.Contains(f.Notice, "Take the urgent ones now") {
		t.Errorf("handed-over urgent notice %q", f.Notice)
	}
	r, _ = Evaluate(now, scan.Snapshot{Feedback: []scan.InboxItem{{Rel: "feedbackbox/a.md", Name: "a.md"}}}, cfg, State{})
	if f, _ := r.Finding(Feedback); strings.Contains(f.Notice, "urgent") {
		t.Errorf("plain feedback called urgent: %q", f.Notice)
	}
}
