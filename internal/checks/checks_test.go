package checks

import (
	"unicode"

	"github.com/ai-heart/ai-heart/internal/lang"
	"github.com/ai-heart/ai-heart/internal/testutil"

	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/scan"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

var now = time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)

var cfg = Config{
	Thresholds:   config.Defaults().Thresholds,
	Restrictions: config.Defaults().Restrictions,
	Loc:          time.UTC,
}

const sec = time.Second

func withBaseline(ago time.Duration) Config {
	c := cfg
	c.Baseline = now.Add(-ago)
	return c
}

// proof is a file written ago before now, named with the ID of that moment.
func proof(rel string, ago time.Duration, typ workspace.ActivityType) *workspace.Proof {
	t := now.Add(-ago)
	return &workspace.Proof{Path: rel, ID: workspace.NewID(t), ModTime: t, Type: typ}
}

func logAgo(ago time.Duration, typ workspace.ActivityType) *workspace.Proof {
	return proof("artifacts/20250101000000_a/histories/"+string(workspace.NewID(now.Add(-ago)))+".md", ago, typ)
}

func cpAgo(ago time.Duration) *workspace.Proof {
	return proof("stats/checkpoints/"+string(workspace.NewID(now.Add(-ago)))+".txt", ago, "")
}

// withLogs fills LastLog and RecentLogs from logs given newest first.
func withLogs(s scan.Snapshot, logs ...*workspace.Proof) scan.Snapshot {
	s.RecentLogs = nil
	for _, l := range logs {
		s.RecentLogs = append(s.RecentLogs, *l)
	}
	if len(logs) > 0 {
		s.LastLog = logs[0]
	}
	return s
}

// decl is a tool-written declaration made ago before now; strict ones last
// minutes.
func decl(mode workspace.Mode, ago time.Duration, minutes int) workspace.Declaration {
	at := now.Add(-ago)
	d := workspace.Declaration{ID: workspace.NewID(at), Mode: mode, Activity: "long build", DeclaredAt: at}
	if mode == workspace.Strict {
		d.PlannedMinutes = minutes
		d.Deadline = at.Add(time.Duration(minutes) * time.Minute)
	}
	return d
}

func active(s scan.Snapshot, ds ...workspace.Declaration) scan.Snapshot {
	for _, d := range ds {
		s.ActiveDeepWork = append(s.ActiveDeepWork, workspace.DeepWorkFile{
			Rel: workspace.DeepWorkDir + "/" + workspace.DeepWorkName(d.ID, workspace.Active), ID: d.ID, ModTime: d.DeclaredAt, Decl: d})
	}
	return s
}

type levelCase struct {
	name string
	snap scan.Snapshot
	cfg  Config
	want Level
}

// japanese reports whether s holds Japanese script.
func japanese(s string) bool {
	for _, r := range s {
		if unicode.In(r, unicode.Hiragana, unicode.Katakana, unicode.Han) {
			return true
		}
	}
	return false
}

func TestJapaneseCatalogue(t *testing.T) { testutil.CheckCatalogue(t, ja, ".") }

func runLevels(t *testing.T, check string, cases []levelCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := tc.cfg
			if c.Loc == nil {
				c = cfg
			}
			r, _ := Evaluate(now, tc.snap, c, State{})
			f, _ := r.Finding(check)
			if f.Level != tc.want {
				t.Errorf("Evaluate(%s) %s = %v (%s), want %v", tc.name, check, f.Level, f.Message, tc.want)
			}
			if (f.Level == OK) != (f.Notice == "") {
				t.Errorf("Evaluate(%s) %s level %v with notice %q: want a notice exactly when not ok", tc.name, check, f.Level, f.Notice)
			}
			// In Japanese the notice is Japanese; the level and the
			// message (an alert line) are the same.
			c.Language = lang.Japanese
			rj, _ := Evaluate(now, tc.snap, c, State{})
			fj, _ := rj.Finding(check)
			if fj.Level != f.Level || fj.Message != f.Message || (fj.Notice != "") != (f.Notice != "") || (f.Notice != "" && !japanese(fj.Notice)) {
				t.Errorf("Evaluate(%s, ja) %s = %v %q %q, want %v %q and the notice in Japanese", tc.name, check, fj.Level, fj.Message, fj.Notice, f.Level, f.Message)
			}
		})
	}
}

func TestInactivity(t *testing.T) {
	m := time.Minute
	runLevels(t, Inactivity, []levelCase{
		{"no proof, no baseline", scan.Snapshot{}, cfg, OK},
		{"no proof, baseline 5m ago", scan.Snapshot{}, withBaseline(5 * m), OK},
		{"no proof, baseline just over 10m ago", scan.Snapshot{}, withBaseline(10*m + sec), Error},
		{"log 5m ago", withLogs(scan.Snapshot{}, logAgo(5*m, "thinking")), cfg, OK},
		{"log just over 5m ago", withLogs(scan.Snapshot{}, logAgo(5*m+sec, "thinking")), cfg, Warning},
		{"log 10m ago", withLogs(scan.Snapshot{}, logAgo(10*m, "thinking")), cfg, Warning},
		{"log just over 10m ago", withLogs(scan.Snapshot{}, logAgo(10*m+sec, "thinking")), cfg, Error},
		{"checkpoint newer than the log", withLogs(scan.Snapshot{LastCheckpoint: cpAgo(m)}, logAgo(20*m, "thinking")), cfg, OK},
		{"checkpoint just over 5m ago", scan.Snapshot{LastCheckpoint: cpAgo(5*m + sec)}, cfg, Warning},
		{"old log, baseline 5m ago", withLogs(scan.Snapshot{}, logAgo(time.Hour, "thinking")), withBaseline(5 * m), OK},
		{"old log, baseline just over 5m ago", withLogs(scan.Snapshot{}, logAgo(time.Hour, "thinking")), withBaseline(5*m + sec), Warning},
		{"paused by strict", active(withLogs(scan.Snapshot{}, logAgo(20*m, "thinking")), decl(workspace.Strict, 15*m, 30)), cfg, OK},
		{"strict at its deadline still pauses", active(withLogs(scan.Snapshot{}, logAgo(40*m, "thinking")), decl(workspace.Strict, 30*m, 30)), cfg, OK},
		// The pause just ended: inactivity counts from the deadline, so the
		// expiry notice comes alone; a deadline long past (the watchdog was
		// down) is held from the deadline.
		{"strict just past its deadline", active(withLogs(scan.Snapshot{}, logAgo(40*m, "thinking")), decl(workspace.Strict, 30*m+sec, 30)), cfg, OK},
		{"strict deadline 5m ago", active(withLogs(scan.Snapshot{}, logAgo(40*m, "thinking")), decl(workspace.Strict, 35*m, 30)), cfg, OK},
		{"strict deadline just over 5m ago", active(withLogs(scan.Snapshot{}, logAgo(40*m, "thinking")), decl(workspace.Strict, 35*m+sec, 30)), cfg, Warning},
		{"strict deadline just over 10m ago", active(withLogs(scan.Snapshot{}, logAgo(50*m, "thinking")), decl(workspace.Strict, 40*m+sec, 30)), cfg, Error},
		{"strict ended by a later log", active(withLogs(scan.Snapshot{}, logAgo(12*m, "thinking")), decl(workspace.Strict, 15*m, 30)), cfg, Error},
		{"flexible does not pause", active(withLogs(scan.Snapshot{}, logAgo(20*m, "thinking")), decl(workspace.Flexible, 15*m, 0)), cfg, Error},
	})
}

func TestIntrospection(t *testing.T) {
	m := time.Minute
	intro := func(ago time.Duration) scan.Snapshot {
		return scan.Snapshot{LastIntrospection: logAgo(ago, workspace.Introspection)}
	}
	runLevels(t, Introspection, []levelCase{
		{"none, no baseline", scan.Snapshot{}, cfg, OK},
		{"15m", intro(15 * m), cfg, OK},
		{"just over 15m (1/2)", intro(15*m + sec), cfg, Info},
		{"20m", intro(20 * m), cfg, Info},
		{"just over 20m (2/3)", intro(20*m + sec), cfg, Warning},
		{"30m", intro(30 * m), cfg, Warning},
		{"just over 30m", intro(30*m + sec), cfg, Error},
		{"none, baseline just over 30m ago", scan.Snapshot{}, withBaseline(30*m + sec), Error},
		{"old, baseline 15m ago", intro(3 * time.Hour), withBaseline(15 * m), OK},
		{"old, baseline just over 15m ago", intro(3 * time.Hour), withBaseline(15*m + sec), Info},
		{"paused by flexible", active(intro(time.Hour), decl(workspace.Flexible, 10*m, 0)), cfg, OK},
		{"paused by strict", active(intro(time.Hour), decl(workspace.Strict, 10*m, 30)), cfg, OK},
		{"flexible ended by a log", active(withLogs(intro(time.Hour), logAgo(5*m, "creation")), decl(workspace.Flexible, 10*m, 0)), cfg, Error},
		{"strict past deadline", active(intro(time.Hour), decl(workspace.Strict, 31*m, 30)), cfg, Error},
	})
}

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

// named is a proof written ago, named with the ID of idAgo.
func named(ago, idAgo time.Duration) *workspace.Proof {
	p := cpAgo(ago)
	p.ID = workspace.NewID(now.Add(-idAgo))
	return p
}

func TestFutureID(t *testing.T) {
	runLevels(t, FutureID, []levelCase{
		{"no proof", scan.Snapshot{}, cfg, OK},
		{"ID now", scan.Snapshot{LastCheckpoint: named(0, 0)}, cfg, OK},
		{"ID 1s ahead", scan.Snapshot{LastCheckpoint: named(0, -sec)}, cfg, Error},
		{"ID ahead, file before the baseline", scan.Snapshot{LastCheckpoint: named(2*time.Minute, -time.Hour)}, withBaseline(time.Minute), OK},
		{"older log with a future ID is not the newest proof", withLogs(scan.Snapshot{LastCheckpoint: named(0, 0)}, named(time.Minute, -time.Hour)), cfg, OK},
	})
}

func TestStaleID(t *testing.T) {
	m := time.Minute
	runLevels(t, StaleID, []levelCase{
		{"no proof", scan.Snapshot{}, cfg, OK},
		{"written 5m after its ID", scan.Snapshot{LastCheckpoint: named(m, 6*m)}, cfg, OK},
		{"just over 5m after", scan.Snapshot{LastCheckpoint: named(m, 6*m+sec)}, cfg, Warning},
		{"10m after", scan.Snapshot{LastCheckpoint: named(m, 11*m)}, cfg, Warning},
		{"just over 10m after", scan.Snapshot{LastCheckpoint: named(m, 11*m+sec)}, cfg, Error},
		{"file 10m old still judged", scan.Snapshot{LastCheckpoint: named(10*m, 30*m)}, cfg, Error},
		{"file just over 10m old not judged", scan.Snapshot{LastCheckpoint: named(10*m+sec, 30*m)}, cfg, OK},
		{"file before the baseline", scan.Snapshot{LastCheckpoint: named(3*m, 30*m)}, withBaseline(2 * m), OK},
		{"file after the baseline", scan.Snapshot{LastCheckpoint: named(m, 30*m)}, withBaseline(2 * m), Error},
		{"paused by strict", active(scan.Snapshot{LastCheckpoint: named(m, 30*m)}, decl(workspace.Strict, 5*m, 30)), cfg, OK},
		{"flexible does not pause", active(scan.Snapshot{LastCheckpoint: named(m, 30*m)}, decl(workspace.Flexible, 5*m, 0)), cfg, Error},
	})
}

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

func TestEvaluateShape(t *testing.T) {
	snap := withLogs(scan.Snapshot{Feedback: []scan.InboxItem{{Rel: "feedbackbox/a.md", Name: "a.md"}}}, logAgo(11*time.Minute, "thinking"))
	r, _ := Evaluate(now, snap, Config{}, State{}) // zero config: defaults apply
	if len(r.Findings) != len(Names) {
		t.Fatalf("Evaluate() gave %d findings, want %d", len(r.Findings), len(Names))
	}
	for i, f := range r.Findings {
		if f.Check != Names[i] {
			t.Errorf("Findings[%d].Check = %q, want %q", i, f.Check, Names[i])
		}
		if f.Message == "" {
			t.Errorf("Findings[%d] (%s) has no message", i, f.Check)
		}
	}
	if r.Worst() != Error || r.Level(Inactivity) != Error || r.Level(Feedback) != Info || r.Level("nope") != OK {
		t.Errorf("Worst() = %v, inactivity %v, feedback %v: want error, error, info", r.Worst(), r.Level(Inactivity), r.Level(Feedback))
	}
	if f, _ := r.Finding(Inactivity); f.Elapsed != 11*time.Minute || f.ProofID != snap.LastLog.ID {
		t.Errorf("inactivity finding = %+v, want elapsed 11m and the log's ID", f)
	}
	for _, c := range Names {
		want := map[string]bool{Inactivity: true, StaleID: true, FutureID: true, LogLoop: true, ThemePattern: true}[c]
		if Recoverable(c) != want {
			t.Errorf("Recoverable(%q) = %v, want %v", c, !want, want)
		}
	}
}

func TestLevelText(t *testing.T) {
	for _, l := range []Level{OK, Info, Warning, Error} {
		b, err := l.MarshalText()
		if err != nil {
			t.Fatal(err)
		}
		var back Level
		if err := back.UnmarshalText(b); err != nil || back != l {
			t.Errorf("UnmarshalText(%s) = %v, %v, want %v", b, back, err, l)
		}
	}
	if _, err := Level(9).MarshalText(); err == nil {
		t.Errorf("MarshalText(9): no error")
	}
	var l Level
	if err := l.UnmarshalText([]byte("fatal")); err == nil {
		t.Errorf("UnmarshalText(fatal): no error")
	}
	if b, _ := json.Marshal(Finding{Level: Warning}); !strings.Contains(string(b), `"level":"warning"`) {
		t.Errorf("json of a finding = %s, want the level by name", b)
	}
}

// withWork is cfg with the agent on a schedule: working since a wakeup
// delivered wakeAgo before now, or waiting (wakeAgo < 0), with worked
// working time since the last introspection.
func withWork(wakeAgo, worked time.Duration) Config {
	c := cfg
	c.Work = Work{Scheduled: true, Worked: worked}
	if wakeAgo >= 0 {
		c.Work.Working, c.Work.Since = true, now.Add(-wakeAgo)
	}
	return c
}

// TestInactivityWorkingAndWaiting: on a schedule, waiting is healthy however
// long; while working, inactivity counts from the later of the wakeup and
// the last proof.
func TestInactivityWorkingAndWaiting(t *testing.T) {
	m := time.Minute
	old := withLogs(scan.Snapshot{}, logAgo(3*time.Hour, "thinking"))
	waiting := time.Duration(-1)
	runLevels(t, Inactivity, []levelCase{
		{"waiting, last log 3h ago", old, withWork(waiting, 0), OK},
		{"waiting, no proof ever", scan.Snapshot{}, withWork(waiting, 0), OK},
		{"working, wakeup 5m ago, old log", old, withWork(5*m, 0), OK},
		{"working, wakeup just over 5m ago, old log", old, withWork(5*m+sec, 0), Warning},
		{"working, wakeup just over 10m ago, old log", old, withWork(10*m+sec, 0), Error},
		{"working, wakeup 20m ago, checkpoint 5m ago", scan.Snapshot{LastCheckpoint: cpAgo(5 * m)}, withWork(20*m, 0), OK},
		{"working, wakeup 20m ago, checkpoint just over 5m ago", scan.Snapshot{LastCheckpoint: cpAgo(5*m + sec)}, withWork(20*m, 0), Warning},
		{"working, no proof, wakeup just over 10m ago", scan.Snapshot{}, withWork(10*m+sec, 0), Error},
	})
}

// TestIntrospectionWorkingTime: on a schedule, introspection is owed per 30
// minutes of working time, whatever the wall clock says.
func TestIntrospectionWorkingTime(t *testing.T) {
	m := time.Minute
	longAgo := scan.Snapshot{LastIntrospection: logAgo(5*time.Hour, workspace.Introspection)}
	waiting := time.Duration(-1)
	runLevels(t, Introspection, []levelCase{
		{"5h ago, 15m worked", longAgo, withWork(waiting, 15*m), OK},
		{"5h ago, just over 15m worked", longAgo, withWork(waiting, 15*m+sec), Info},
		{"5h ago, just over 20m worked", longAgo, withWork(m, 20*m+sec), Warning},
		{"5h ago, 30m worked", longAgo, withWork(m, 30*m), Warning},
		{"5h ago, just over 30m worked", longAgo, withWork(m, 30*m+sec), Error},
		{"never, 10m worked", scan.Snapshot{}, withWork(m, 10*m), OK},
	})
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
