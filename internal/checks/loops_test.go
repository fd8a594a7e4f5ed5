package checks

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/scan"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

func TestLogLoop(t *testing.T) {
	a := logAgo(time.Minute, "thinking")
	at := func(p *workspace.Proof, d time.Duration) *workspace.Proof {
		c := *p
		c.ModTime = c.ModTime.Add(d)
		return &c
	}
	b := logAgo(30*sec, "thinking")
	tests := []struct {
		name   string
		pulses []*workspace.Proof
		want   []Level
	}{
		{"unchanged", []*workspace.Proof{a, a, a}, []Level{OK, OK, OK}},
		{"rewritten once", []*workspace.Proof{a, at(a, sec), at(a, sec)}, []Level{OK, OK, OK}},
		{"rewritten in 2 consecutive pulses", []*workspace.Proof{a, at(a, sec), at(a, 2*sec)}, []Level{OK, OK, Error}},
		{"rewrites with a quiet pulse between", []*workspace.Proof{a, at(a, sec), at(a, sec), at(a, 2*sec)}, []Level{OK, OK, OK, OK}},
		{"back to ok when it stops", []*workspace.Proof{a, at(a, sec), at(a, 2*sec), at(a, 2*sec)}, []Level{OK, OK, Error, OK}},
		{"new logs are not rewrites", []*workspace.Proof{a, b, at(b, sec)}, []Level{OK, OK, OK}},
		{"no log", []*workspace.Proof{nil, nil}, []Level{OK, OK}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var st State
			for i, p := range tc.pulses {
				snap := scan.Snapshot{}
				if p != nil {
					snap = withLogs(snap, p)
				}
				var r Result
				r, st = Evaluate(now, snap, cfg, st)
				// The state survives the daemon's JSON state file.
				b, err := json.Marshal(st)
				if err != nil {
					t.Fatal(err)
				}
				st = State{}
				if err := json.Unmarshal(b, &st); err != nil {
					t.Fatal(err)
				}
				if got := r.Level(LogLoop); got != tc.want[i] {
					t.Errorf("Evaluate(%s, pulse %d) = %v, want %v", tc.name, i, got, tc.want[i])
				}
			}
		})
	}
}

func TestThemePattern(t *testing.T) {
	recs := func(n int, ago time.Duration) scan.Snapshot {
		id := workspace.NewID(now.Add(-ago))
		s := scan.Snapshot{ThemeRecordID: id}
		for i := range n {
			s.ThemeRecords = append(s.ThemeRecords, "artifacts/theme_histories/"+string(id)+"_start_"+string(rune('a'+i))+".md")
		}
		return s
	}
	m := time.Minute
	runLevels(t, ThemePattern, []levelCase{
		{"none", scan.Snapshot{}, cfg, OK},
		{"2 share the ID", recs(2, m), cfg, OK},
		{"3 share the ID", recs(3, m), cfg, Error},
		{"3, 10m ago", recs(3, 10*m), cfg, Error},
		{"3, just over 10m ago", recs(3, 10*m+sec), cfg, OK},
		{"3, before the baseline", recs(3, 2*m), withBaseline(m), OK},
		// IDs have whole seconds; the baseline has nanoseconds. The ID of the
		// baseline's own second is the watchdog's first: not before it.
		{"3, in the baseline's second", recs(3, sec), withBaseline(500 * time.Millisecond), Error},
		{"3, the second before the baseline's", recs(3, 2*sec), withBaseline(500 * time.Millisecond), OK},
	})
}
