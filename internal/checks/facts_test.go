package checks

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/hook"
	"github.com/ai-heart/ai-heart/internal/lang"
	"github.com/ai-heart/ai-heart/internal/scan"
	"github.com/ai-heart/ai-heart/internal/testutil"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// TestRecoverableFactsGiveTheNumbers: every recoverable check at error says
// what is wrong with its numbers in the agent's language, for the recovery
// notice (the alert line is English, for machines). A Japanese agent once
// read a fixed sentence where the English one read "for 26s (warning after
// 5s, error after 10s)".
func TestRecoverableFactsGiveTheNumbers(t *testing.T) {
	m := time.Minute
	loop := func() (Config, scan.Snapshot, State) {
		a := logAgo(m, "thinking")
		b := *a
		b.ModTime = b.ModTime.Add(sec)
		_, st := Evaluate(now, withLogs(scan.Snapshot{}, a), cfg, State{})
		_, st = Evaluate(now, withLogs(scan.Snapshot{}, &b), cfg, st)
		c := b
		c.ModTime = c.ModTime.Add(sec)
		return cfg, withLogs(scan.Snapshot{}, &c), st
	}
	themes := scan.Snapshot{ThemeRecordID: workspace.NewID(now.Add(-m))}
	for i := range 3 {
		themes.ThemeRecords = append(themes.ThemeRecords, "artifacts/theme_histories/"+string(themes.ThemeRecordID)+"_start_"+string(rune('a'+i))+".md")
	}
	var calls []hook.Event
	for range 16 {
		calls = append(calls, toolAt(m, "Bash", "npm test"))
	}
	cases := map[string]func() (Config, scan.Snapshot, State){
		Inactivity: func() (Config, scan.Snapshot, State) {
			return cfg, withLogs(scan.Snapshot{}, logAgo(11*m+30*sec, "thinking")), State{}
		},
		StaleID: func() (Config, scan.Snapshot, State) {
			return cfg, scan.Snapshot{LastCheckpoint: named(m, 30*m)}, State{}
		},
		FutureID: func() (Config, scan.Snapshot, State) {
			return cfg, scan.Snapshot{LastCheckpoint: named(0, -2*m)}, State{}
		},
		LogLoop: loop,
		ThemePattern: func() (Config, scan.Snapshot, State) {
			return cfg, themes, State{}
		},
		ToolLoop: func() (Config, scan.Snapshot, State) {
			c := cfg
			c.Client = activity(calls...)
			return c, scan.Snapshot{}, State{}
		},
	}
	digits := regexp.MustCompile(`\d`)
	for _, check := range Names {
		if !Recoverable(check) {
			continue
		}
		mk, ok := cases[check]
		if !ok {
			t.Errorf("recoverable check %s has no case here: add one", check)
			continue
		}
		for _, l := range []lang.Lang{lang.English, lang.Japanese} {
			c, snap, st := mk()
			c.Language = l
			r, _ := Evaluate(now, snap, c, st)
			f, _ := r.Finding(check)
			if f.Level != Error {
				t.Fatalf("%s (%s): level %v (%s), want error", check, l, f.Level, f.Message)
			}
			if !digits.MatchString(f.Fact) || !strings.Contains(f.Fact, check) {
				t.Errorf("%s (%s): fact %q lacks its numbers or its check's name", check, l, f.Fact)
			}
			if l == lang.Japanese {
				testutil.CheckJapanese(t, check+" fact", f.Fact, "Bash") // the tool's own name
			}
		}
	}
}
