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
			testutil.CheckJapanese(t, tc.name+" notice", fj.Notice)
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
		want := map[string]bool{Inactivity: true, StaleID: true, FutureID: true, LogLoop: true, ThemePattern: true, ToolLoop: true}[c]
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
