package checks

import (
	"strings"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/lang"
	"github.com/ai-heart/ai-heart/internal/scan"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// The advice is graded by level as
// heartbeat-notices.md grades it (info: plan; warning: the next log;
// error: now), deep work is offered as a pause only below error, and the
// inactivity error points to recovery instead of "keep going".
func TestNoticeAdviceIsGradedByLevel(t *testing.T) {
	m := time.Minute
	intro := func(ago time.Duration) scan.Snapshot {
		return scan.Snapshot{LastIntrospection: logAgo(ago, workspace.Introspection)}
	}
	proof := func(ago time.Duration) scan.Snapshot {
		return scan.Snapshot{LastLog: logAgo(ago, workspace.Creation), LastIntrospection: logAgo(ago, workspace.Introspection)}
	}
	tests := []struct {
		name, check string
		snap        scan.Snapshot
		want        Level
		has, hasNot []string
	}{
		{"introspection info", Introspection, intro(16 * m), Info, []string{"Plan an introspection", "start_deep_work"}, []string{"Introspect now"}},
		{"introspection warning", Introspection, intro(21 * m), Warning, []string{"Make your next activity log an introspection", "start_deep_work"}, []string{"Introspect now"}},
		{"introspection error", Introspection, intro(31 * m), Error, []string{"Introspect now, in this cycle"}, []string{"start_deep_work"}},
		{"inactivity warning", Inactivity, proof(6 * m), Warning, []string{"If you are still working, write a checkpoint"}, []string{"recovery"}},
		{"inactivity error", Inactivity, proof(11 * m), Error, []string{"starts recovery", "activity_type recovery"}, []string{"If you are still working", "start_deep_work"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, _ := Evaluate(now, tc.snap, cfg, State{})
			f, _ := r.Finding(tc.check)
			if f.Level != tc.want {
				t.Fatalf("level %v (%s), want %v", f.Level, f.Message, tc.want)
			}
			for _, s := range tc.has {
				if !strings.Contains(f.Notice, s) {
					t.Errorf("notice lacks %q: %s", s, f.Notice)
				}
			}
			for _, s := range tc.hasNot {
				if strings.Contains(f.Notice, s) {
					t.Errorf("notice says %q: %s", s, f.Notice)
				}
			}
			c := cfg
			c.Language = lang.Japanese
			rj, _ := Evaluate(now, tc.snap, c, State{})
			if fj, _ := rj.Finding(tc.check); strings.Contains(fj.Notice, "You have") || strings.Contains(fj.Notice, "No activity") {
				t.Errorf("Japanese notice has English: %s", fj.Notice)
			}
		})
	}
}

// After a strict deadline, one order is given, once: the
// expiry notice's. The introspection notice does not offer deep work
// again until the log that records the expired work.
func TestAfterStrictExpiryOneOrder(t *testing.T) {
	m := time.Minute
	snap := scan.Snapshot{LastLog: logAgo(30*m, workspace.Creation), LastIntrospection: logAgo(21*m, workspace.Introspection)}
	r, _ := Evaluate(now, snap, cfg, State{StrictEnded: now.Add(-m)})
	f, _ := r.Finding(Introspection)
	if f.Level != Warning || strings.Contains(f.Notice, "start_deep_work") || !strings.Contains(f.Notice, "Make your next activity log an introspection") {
		t.Errorf("introspection after a strict deadline: %v %q", f.Level, f.Notice)
	}
	// Once the log is written, the usual advice is back.
	snap.LastLog = logAgo(0, workspace.Creation)
	r, _ = Evaluate(now, snap, cfg, State{StrictEnded: now.Add(-m)})
	if f, _ := r.Finding(Introspection); !strings.Contains(f.Notice, "start_deep_work") {
		t.Errorf("introspection after the log: %q", f.Notice)
	}
	// The expiry notice gives the order.
	snap = active(withLogs(scan.Snapshot{}, logAgo(time.Hour, "thinking")), decl(workspace.Strict, 31*m, 30))
	r, _ = Evaluate(now, snap, cfg, State{})
	if f, _ := r.Finding(DeepWorkExpired); f.Level != Warning || !strings.Contains(f.Notice, "In this order: 1. record what you did") ||
		!strings.Contains(f.Notice, "inactivity counts again from the deadline") {
		t.Errorf("expiry notice: %v %q", f.Level, f.Notice)
	}
}
