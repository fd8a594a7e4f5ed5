package checks

import (
	"strings"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/scan"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

func TestLegacyDeclaration(t *testing.T) {
	m := time.Minute
	legacy := func(ago time.Duration) workspace.Declaration {
		id := workspace.NewID(now.Add(-ago))
		d, err := workspace.ParseDeclaration(id, []byte("制限タイプ: strict\n活動予定内容: 画像生成\n予定時間: 20分\n"), time.UTC)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	old := withLogs(scan.Snapshot{}, logAgo(time.Hour, "thinking"))
	runLevels(t, Inactivity, []levelCase{
		{"legacy strict 20m, 20m in", active(old, legacy(20*m)), cfg, OK},
		{"legacy strict 20m, just over", active(old, legacy(20*m+sec)), cfg, OK},
		{"legacy strict 20m, 10m past", active(old, legacy(30*m+sec)), cfg, Error},
	})
	runLevels(t, DeepWorkExpired, []levelCase{
		{"legacy strict 20m, 20m in", active(old, legacy(20*m)), cfg, OK},
		{"legacy strict 20m, just over", active(old, legacy(20*m+sec)), cfg, Warning},
	})
}

func TestDeepWorkExpired(t *testing.T) {
	m := time.Minute
	far := decl(workspace.Strict, 30*m+sec, 30)
	far.Deadline = now.Add(24 * time.Hour) // hand-written: capped at 30m
	old := withLogs(scan.Snapshot{}, logAgo(time.Hour, "thinking"))
	tests := []struct {
		name   string
		snap   scan.Snapshot
		cfg    Config
		want   Level
		action ActionKind
	}{
		{"deadline just ahead", active(old, decl(workspace.Strict, 30*m-sec, 30)), cfg, OK, ""},
		{"at the deadline", active(old, decl(workspace.Strict, 30*m, 30)), cfg, OK, ""},
		{"just past the deadline", active(old, decl(workspace.Strict, 30*m+sec, 30)), cfg, Warning, ExpireDeclaration},
		{"expired before the baseline", active(old, decl(workspace.Strict, 2*time.Hour, 30)), withBaseline(time.Hour), OK, ExpireDeclaration},
		{"far deadline capped", active(old, far), cfg, Warning, ExpireDeclaration},
		{"completed by a log before the deadline", active(withLogs(scan.Snapshot{}, logAgo(m, "creation")), decl(workspace.Strict, 31*m, 30)), cfg, OK, CompleteDeclaration},
		{"flexible ended by a log", active(withLogs(scan.Snapshot{}, logAgo(m, "creation")), decl(workspace.Flexible, 2*m, 0)), cfg, OK, CompleteDeclaration},
		{"flexible, log before it", active(withLogs(scan.Snapshot{}, logAgo(3*m, "creation")), decl(workspace.Flexible, 2*m, 0)), cfg, OK, ""},
		{"flexible never expires", active(withLogs(scan.Snapshot{}, logAgo(11*time.Hour, "thinking")), decl(workspace.Flexible, 10*time.Hour, 0)), cfg, OK, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, _ := Evaluate(now, tc.snap, tc.cfg, State{})
			if got := r.Level(DeepWorkExpired); got != tc.want {
				t.Errorf("Evaluate(%s) = %v, want %v", tc.name, got, tc.want)
			}
			var kinds []ActionKind
			for _, a := range r.Actions {
				kinds = append(kinds, a.Kind)
				d := tc.snap.ActiveDeepWork[0]
				wantNew := workspace.DeepWorkDir + "/" + string(d.ID) + map[ActionKind]string{ExpireDeclaration: ".expired.txt", CompleteDeclaration: ".completed.txt"}[a.Kind]
				if a.Rel != d.Rel || a.NewRel != wantNew {
					t.Errorf("Evaluate(%s) action = %+v, want %s -> %s", tc.name, a, d.Rel, wantNew)
				}
			}
			if (tc.action == "") != (len(kinds) == 0) || (tc.action != "" && (len(kinds) != 1 || kinds[0] != tc.action)) {
				t.Errorf("Evaluate(%s) actions = %v, want [%s]", tc.name, kinds, tc.action)
			}
		})
	}
}

func TestDeclarationFileTimeBeatsSecondPrecision(t *testing.T) {
	// A log written 300ms before the declaration, in the same second as its
	// whole-second declared_at, must not end it.
	d := decl(workspace.Flexible, time.Minute, 0)
	fileAt := d.DeclaredAt.Add(800 * time.Millisecond)
	l := logAgo(time.Minute, "creation")
	l.ModTime = d.DeclaredAt.Add(500 * time.Millisecond)
	snap := withLogs(scan.Snapshot{LastIntrospection: logAgo(2*time.Hour, workspace.Introspection)}, l)
	snap.ActiveDeepWork = []workspace.DeepWorkFile{{Rel: "stats/deep_work/" + string(d.ID) + ".txt", ID: d.ID, ModTime: fileAt, Decl: d}}
	r, _ := Evaluate(now, snap, cfg, State{})
	if len(r.Actions) != 0 {
		t.Errorf("Evaluate(log before declaration file) actions = %+v, want none", r.Actions)
	}
	if f, _ := r.Finding(Introspection); !strings.Contains(f.Message, "paused") {
		t.Errorf("Evaluate(log before declaration file) introspection = %q, want paused", f.Message)
	}
}

func TestAfterDeepWork(t *testing.T) {
	m := time.Minute
	done := &scan.CompletedDeepWork{
		Decl:    decl(workspace.Flexible, 60*m, 0),
		Rel:     "stats/deep_work/x.completed.txt",
		ModTime: now.Add(-60 * m),
	}
	snap := func(logs ...*workspace.Proof) scan.Snapshot {
		return withLogs(scan.Snapshot{LastCompleted: done}, logs...)
	}
	var eight []*workspace.Proof
	for i := range 8 {
		eight = append(eight, logAgo(time.Duration(i+1)*m, "thinking"))
	}
	runLevels(t, AfterDeepWork, []levelCase{
		{"none completed", withLogs(scan.Snapshot{}, logAgo(m, "thinking")), cfg, OK},
		{"only the completing log", snap(logAgo(40*m, "creation"), logAgo(70*m, "thinking")), cfg, OK},
		{"next log not introspection", snap(logAgo(10*m, "thinking"), logAgo(40*m, "creation"), logAgo(70*m, "thinking")), cfg, Warning},
		{"next log introspection", snap(logAgo(10*m, workspace.Introspection), logAgo(40*m, "creation")), cfg, OK},
		{"introspection came later", snap(logAgo(5*m, workspace.Introspection), logAgo(10*m, "thinking"), logAgo(40*m, "creation")), cfg, OK},
		{"completing log was introspection", snap(logAgo(10*m, "thinking"), logAgo(40*m, workspace.Introspection)), cfg, OK},
		{"next log untyped", snap(logAgo(10*m, ""), logAgo(40*m, "creation")), cfg, Warning},
		{"next log before the baseline", snap(logAgo(10*m, "thinking"), logAgo(40*m, "creation")), withBaseline(5 * m), OK},
		{"next log after the baseline", snap(logAgo(10*m, "thinking"), logAgo(40*m, "creation")), withBaseline(15 * m), Warning},
		{"completing log out of sight", snap(eight...), cfg, OK},
	})
}

func TestInvalidDeclaration(t *testing.T) {
	snap := scan.Snapshot{InvalidDeepWork: []scan.InvalidDeclaration{{Rel: "stats/deep_work/20250601110000.txt", ID: "20250601110000", Err: "bad deep-work declaration: no mode line"}}}
	r, _ := Evaluate(now, snap, cfg, State{})
	if got := r.Level(InvalidDeclaration); got != Warning {
		t.Errorf("Evaluate(invalid) = %v, want %v", got, Warning)
	}
	want := Action{Kind: InvalidateDeclaration, Rel: "stats/deep_work/20250601110000.txt", NewRel: "stats/deep_work/20250601110000.invalid.txt"}
	if len(r.Actions) != 1 || r.Actions[0] != want {
		t.Errorf("Evaluate(invalid) actions = %+v, want [%+v]", r.Actions, want)
	}
	runLevels(t, InvalidDeclaration, []levelCase{{"none", scan.Snapshot{}, cfg, OK}, {"one", snap, cfg, Warning}})
}

// TestStrictEndCarriesToLaterPulses: once a strict declaration has expired
// (and been renamed), the next pulses still count inactivity from its
// deadline, not from the proof before it.
func TestStrictEndCarriesToLaterPulses(t *testing.T) {
	m := time.Minute
	logs := withLogs(scan.Snapshot{}, logAgo(40*m, "thinking"))
	d := decl(workspace.Strict, 30*m+sec, 30) // deadline 1s ago
	_, st := Evaluate(now, active(logs, d), cfg, State{})
	if want := d.Deadline; !st.StrictEnded.Equal(want) {
		t.Fatalf("StrictEnded = %v, want the deadline %v", st.StrictEnded, want)
	}
	for _, tc := range []struct {
		after time.Duration
		want  Level
	}{{sec, OK}, {5*m - 2*sec, OK}, {5*m + sec, Warning}, {10 * m, Error}} {
		r, _ := Evaluate(now.Add(tc.after), logs, cfg, st)
		if f, _ := r.Finding(Inactivity); f.Level != tc.want {
			t.Errorf("Evaluate(%s after the expiry) inactivity = %v (%s), want %v", tc.after, f.Level, f.Message, tc.want)
		}
	}
}
