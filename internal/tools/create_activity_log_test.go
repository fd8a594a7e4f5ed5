package tools

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/workspace"

	"github.com/ai-heart/ai-heart/internal/humanize"
	"github.com/ai-heart/ai-heart/internal/lang"
)

const goodLog = `{"activity_type":"creation","activity_content":["wrote notes"],"theme_start_id":"20250101000000","theme_directory_part":"research"}`

func TestCreateActivityLogWrites(t *testing.T) {
	e := newEnv(t)
	e.write("artifacts/20250101000000_research/notes.md", "n", e.now())
	res, err := call(e.tl, e.tl.CreateActivityLog, args(t, `{"activity_type":"introspection","activity_content":["looked back","- planned next"],
		"artifacts":["artifacts/20250101000000_research/notes.md","`+filepath.ToSlash(e.ws.Path("artifacts/20250101000000_research/notes.md"))+`"],
		"evaluation":"good\n## Activity type\nobservation","theme_start_id":"20250101000000","theme_directory_part":"research"}`))
	if err != nil {
		t.Fatal(err)
	}
	want := testThemeHist + "/" + string(testID) + ".md"
	if res.Path != want || res.HeartbeatID != string(testID) {
		t.Fatalf("CreateActivityLog = %+v, want path %s", res, want)
	}
	lg := workspace.ParseActivityLog([]byte(e.read(want)))
	if lg.Type != workspace.Introspection {
		t.Errorf("written type = %q, want introspection (the evaluation must not forge a type heading)", lg.Type)
	}
	if len(lg.Content) != 2 || lg.Content[0] != "looked back" {
		t.Errorf("written content = %q", lg.Content)
	}
	if len(lg.Artifacts) != 2 || lg.Artifacts[1] != "artifacts/20250101000000_research/notes.md" {
		t.Errorf("artifacts = %q, want the absolute one made workspace-relative", lg.Artifacts)
	}
	l, err := e.ws.ReadLatest()
	if err != nil || l.Log == nil || l.Log.Path != want || l.Introspection == nil || l.Introspection.Path != want {
		t.Errorf("latest index = %+v, %v; want log and introspection %s", l, err, want)
	}
	if res.SincePreviousLogSeconds != nil || res.Stage != "" {
		t.Errorf("first log reports a previous cycle: %+v", res)
	}
	// Said as the Japanese says it, in words a reader takes at once.
	if text := res.Text(lang.English); !strings.Contains(text, "Time since previous activity log: none (this is the first log).") {
		t.Errorf("first log's reply:\n%s", text)
	}
}

func TestCreateActivityLogBadCalls(t *testing.T) {
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "secret.md"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		json  string
		field string
		words []string
	}{
		{"missing type", `{"activity_content":["a"],"theme_start_id":"20250101000000","theme_directory_part":"research"}`, "activity_type", []string{"required", "introspection"}},
		{"unknown type", `{"activity_type":"dreaming","activity_content":["a"],"theme_start_id":"20250101000000","theme_directory_part":"research"}`, "activity_type", []string{"dreaming", "observation"}},
		{"type with extra words", `{"activity_type":"thinking hard","activity_content":["a"],"theme_start_id":"20250101000000","theme_directory_part":"research"}`, "activity_type", nil},
		{"type not a string", `{"activity_type":3,"activity_content":["a"],"theme_start_id":"20250101000000","theme_directory_part":"research"}`, "activity_type", []string{"number 3"}},
		{"missing content", `{"activity_type":"thinking","theme_start_id":"20250101000000","theme_directory_part":"research"}`, "activity_content", []string{"required"}},
		{"empty content", `{"activity_type":"thinking","activity_content":["  ",""],"theme_start_id":"20250101000000","theme_directory_part":"research"}`, "activity_content", []string{"at least one"}},
		{"content item not a string", `{"activity_type":"thinking","activity_content":["a",{"b":1}],"theme_start_id":"20250101000000","theme_directory_part":"research"}`, "activity_content[1]", []string{"object"}},
		{"content an object", `{"activity_type":"thinking","activity_content":{"a":1},"theme_start_id":"20250101000000","theme_directory_part":"research"}`, "activity_content", []string{"list"}},
		{"artifact missing", `{"activity_type":"thinking","activity_content":["a"],"artifacts":["artifacts/nope.md"],"theme_start_id":"20250101000000","theme_directory_part":"research"}`, "artifacts[0]", []string{"does not exist"}},
		{"artifact dot-dot", `{"activity_type":"thinking","activity_content":["a"],"artifacts":["../x.md"],"theme_start_id":"20250101000000","theme_directory_part":"research"}`, "artifacts[0]", []string{"not inside"}},
		{"artifact absolute outside", `{"activity_type":"thinking","activity_content":["a"],"artifacts":["` + filepath.ToSlash(filepath.Join(outside, "secret.md")) + `"],"theme_start_id":"20250101000000","theme_directory_part":"research"}`, "artifacts[0]", []string{"not inside"}},
		{"evaluation not a string", `{"activity_type":"thinking","activity_content":["a"],"evaluation":["x"],"theme_start_id":"20250101000000","theme_directory_part":"research"}`, "evaluation", []string{"string"}},
		{"missing theme id", `{"activity_type":"thinking","activity_content":["a"],"theme_directory_part":"research"}`, "theme_start_id", []string{"required"}},
		{"bad theme id", `{"activity_type":"thinking","activity_content":["a"],"theme_start_id":"2025-01-01","theme_directory_part":"research"}`, "theme_start_id", []string{"14 digits"}},
		{"part with slash", `{"activity_type":"thinking","activity_content":["a"],"theme_start_id":"20250101000000","theme_directory_part":"research/x"}`, "theme_directory_part", []string{"separator"}},
		{"part with backslash", `{"activity_type":"thinking","activity_content":["a"],"theme_start_id":"20250101000000","theme_directory_part":"a\\b"}`, "theme_directory_part", []string{"separator"}},
		{"part leading dot", `{"activity_type":"thinking","activity_content":["a"],"theme_start_id":"20250101000000","theme_directory_part":".hidden"}`, "theme_directory_part", []string{"dot"}},
		{"parent id without part", `{"activity_type":"thinking","activity_content":["a"],"theme_start_id":"20250101000000","theme_directory_part":"research","parent_theme_start_id":"20250101000000"}`, "parent_theme_directory_part", []string{"both"}},
		{"parent part without id", `{"activity_type":"thinking","activity_content":["a"],"theme_start_id":"20250101000000","theme_directory_part":"research","parent_theme_directory_part":"x"}`, "parent_theme_start_id", []string{"both"}},
		{"missing theme folder", `{"activity_type":"thinking","activity_content":["a"],"theme_start_id":"20250101000001","theme_directory_part":"research"}`, "theme_start_id", []string{"does not exist", "20250101000000"}},
		{"missing parent folder", `{"activity_type":"thinking","activity_content":["a"],"theme_start_id":"20250101000000","theme_directory_part":"research","parent_theme_start_id":"20250101000000","parent_theme_directory_part":"nope"}`, "parent_theme_start_id", []string{"does not exist"}},
		{"misspelt parameter", `{"activity_type":"thinking","activity_contents":["a"],"theme_start_id":"20250101000000","theme_directory_part":"research"}`, "activity_contents", []string{"unknown parameter", "activity_content"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			before := e.snapshot()
			_, err := call(e.tl, e.tl.CreateActivityLog, args(t, tc.json))
			wantInputError(t, err, tc.field, tc.words...)
			e.sameSnapshot(before)
		})
	}
}

func TestCreateActivityLogMissingHistories(t *testing.T) {
	e := newEnv(t)
	if err := os.MkdirAll(e.ws.Path("artifacts/20250101000000_bare"), 0o755); err != nil {
		t.Fatal(err)
	}
	before := e.snapshot()
	_, err := call(e.tl, e.tl.CreateActivityLog, args(t, `{"activity_type":"thinking","activity_content":["a"],"theme_start_id":"20250101000000","theme_directory_part":"bare"}`))
	wantInputError(t, err, "theme_start_id", "histories")
	e.sameSnapshot(before)
}

func TestCreateActivityLogSymlinkedThemeOutsideRefused(t *testing.T) {
	e := newEnv(t)
	outside := t.TempDir()
	if err := os.MkdirAll(filepath.Join(outside, "histories"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, e.ws.Path("artifacts/20250101000000_escape")); err != nil {
		t.Skipf("symlinks unavailable: %v", err)
	}
	before := e.snapshot()
	_, err := call(e.tl, e.tl.CreateActivityLog, args(t, `{"activity_type":"thinking","activity_content":["a"],"theme_start_id":"20250101000000","theme_directory_part":"escape"}`))
	wantInputError(t, err, "theme_start_id", "outside the workspace")
	e.sameSnapshot(before)
	if ents, _ := os.ReadDir(filepath.Join(outside, "histories")); len(ents) != 0 {
		t.Errorf("wrote through the symlink: %v", ents)
	}
}

func TestCreateActivityLogNoCurrentID(t *testing.T) {
	for _, content := range []string{"", "garbage\n"} {
		t.Run(fmt.Sprintf("file%q", content), func(t *testing.T) {
			e := newEnv(t)
			if content == "" {
				os.Remove(e.ws.Path(workspace.CurrentIDFile))
			} else {
				e.write(workspace.CurrentIDFile, content, e.now())
			}
			before := e.snapshot()
			_, err := call(e.tl, e.tl.CreateActivityLog, args(t, goodLog))
			wantInputError(t, err, "", "not minted a heartbeat ID", "watchdog run")
			e.sameSnapshot(before)
		})
	}
}

// The sequence <ID>.md, <ID>_01.md .. <ID>_99.md holds 100 logs: the 100th
// call still succeeds, the 101st fails clearly and writes nothing.
func TestCreateActivityLogSequenceLimit(t *testing.T) {
	e := newEnv(t)
	for i := 0; i <= workspace.MaxSequence; i++ {
		res, err := call(e.tl, e.tl.CreateActivityLog, args(t, goodLog))
		if err != nil {
			t.Fatalf("call %d: %v", i+1, err)
		}
		if want := testThemeHist + "/" + workspace.SequenceName(testID, i, ".md"); res.Path != want {
			t.Fatalf("call %d wrote %s, want %s", i+1, res.Path, want)
		}
	}
	before := e.snapshot()
	_, err := call(e.tl, e.tl.CreateActivityLog, args(t, goodLog))
	wantInputError(t, err, "", "all 100", "next heartbeat ID")
	e.sameSnapshot(before)
}

func TestCreateActivityLogCompletesDeepWork(t *testing.T) {
	e := newEnv(t)
	older := workspace.ID("20250102020000")
	declared := e.now().Add(-12 * time.Minute)
	e.write("stats/deep_work/"+string(older)+".txt", string(workspace.Declaration{ID: older, Mode: workspace.Flexible, Activity: "long refactor", DeclaredAt: declared}.Format()), declared)
	// A legacy Japanese declaration (deadline = ID time + 20 min) is completed too.
	e.write("stats/deep_work/20250102030000.txt", "制限タイプ: strict\n活動予定内容: 論文の読解\n予定時間: 20分\n", e.now())
	e.write("stats/deep_work/20250102010000.completed.txt", "mode: flexible\nactivity: old one here\ndeclared_at: 2025-01-02T01:00:00Z\n", e.now())

	res, err := call(e.tl, e.tl.CreateActivityLog, args(t, goodLog))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.CompletedDeepWork) != 2 {
		t.Fatalf("completed = %+v, want the two active declarations", res.CompletedDeepWork)
	}
	c := res.CompletedDeepWork[0]
	if c.File != "stats/deep_work/20250102020000.completed.txt" || c.Mode != "flexible" || c.DurationSeconds != 12*60 {
		t.Errorf("completed[0] = %+v, want flexible, 720 s", c)
	}
	if c := res.CompletedDeepWork[1]; c.Mode != "strict" || c.Activity != "論文の読解" {
		t.Errorf("legacy declaration read as %+v", c)
	}
	for _, rel := range []string{"stats/deep_work/20250102020000.txt", "stats/deep_work/20250102030000.txt"} {
		if e.exists(rel) {
			t.Errorf("%s still active", rel)
		}
	}
	if !strings.Contains(res.Text(lang.English), "must be an introspection") {
		t.Errorf("reply lacks the introspection reminder: %s", res.Text(lang.English))
	}
}

// The closing note agrees with the inactivity check: notice past the
// warning (5 m), split past the error (10 m), counted as the check counts,
// from the newest proof ("more than the threshold", so 5m0s is not past).
func TestCreateActivityLogStageNote(t *testing.T) {
	tests := []struct {
		name  string
		cycle time.Duration
		stage string
	}{
		{"4m59s", 4*time.Minute + 59*time.Second, ""},
		{"5m0s", 5 * time.Minute, ""},
		{"5m1s", 5*time.Minute + time.Second, "notice"},
		{"9m59s", 9*time.Minute + 59*time.Second, "notice"},
		{"10m1s", 10*time.Minute + time.Second, "split"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			e.writeState(t, e.now())
			e.write(testThemeHist+"/20250102020000.md", "# Activity log\n## Activity type\nthinking\n", e.now().Add(-tc.cycle))
			res, err := call(e.tl, e.tl.CreateActivityLog, args(t, goodLog))
			if err != nil {
				t.Fatal(err)
			}
			if res.Stage != tc.stage {
				t.Errorf("cycle %s: stage = %q, want %q", tc.cycle, res.Stage, tc.stage)
			}
			if res.SincePreviousLogSeconds == nil || *res.SincePreviousLogSeconds != int64(tc.cycle/time.Second) {
				t.Errorf("since previous log = %v, want %d", res.SincePreviousLogSeconds, int64(tc.cycle/time.Second))
			}
			// The log has just closed the cycle: the note looks back on it
			// and never asks for the log it is the reply to.
			if text := res.Text(lang.English); tc.stage != "" && (!strings.Contains(text, "Before this log, "+humanize.Span(tc.cycle).String()+" passed with no proof of activity") || strings.Contains(text, "close it with an activity log") || strings.Contains(text, "closing what is done with an activity log")) {
				t.Errorf("cycle %s: the note does not look back on the cycle this log closed:\n%s", tc.cycle, text)
			}
		})
	}
	// A long cycle with checkpoints at its breaks crossed nothing: the
	// check saw none of it, so neither does the note.
	t.Run("long cycle with checkpoints", func(t *testing.T) {
		e := newEnv(t)
		e.writeState(t, e.now())
		e.write(testThemeHist+"/20250102020000.md", "# Activity log\n## Activity type\nthinking\n", e.now().Add(-12*time.Minute))
		e.write("stats/checkpoints/20250102030000.txt", "03:00:00 still reading\n", e.now().Add(-2*time.Second))
		res, err := call(e.tl, e.tl.CreateActivityLog, args(t, goodLog))
		if err != nil {
			t.Fatal(err)
		}
		if res.Stage != "" || strings.Contains(res.Text(lang.English), "past the inactivity") {
			t.Errorf("stage %q:\n%s", res.Stage, res.Text(lang.English))
		}
	})
	// A recovery log closes a stall, not long work: recovery has said what
	// went wrong, and "split your work" would be beside the point.
	e := newEnv(t)
	e.writeState(t, e.now())
	e.write(testThemeHist+"/20250102020000.md", "# Activity log\n## Activity type\nthinking\n", e.now().Add(-12*time.Minute))
	res, err := call(e.tl, e.tl.CreateActivityLog, args(t, strings.Replace(goodLog, `"creation"`, `"recovery"`, 1)))
	if err != nil {
		t.Fatal(err)
	}
	if res.Stage != "" || strings.Contains(res.Text(lang.English), "This cycle") {
		t.Errorf("recovery log: stage %q:\n%s", res.Stage, res.Text(lang.English))
	}
}

// TestCreateActivityLogReportsEveryBadField: one call with three bad fields
// is told about all three, so one retry can fix them.
func TestCreateActivityLogReportsEveryBadField(t *testing.T) {
	e := newEnv(t)
	before := e.snapshot()
	_, err := call(e.tl, e.tl.CreateActivityLog, args(t, `{"activity_type":"dreaming","activity_content":[],"theme_start_id":"2025","theme_directory_part":"../cache"}`))
	var ie *InputError
	if !errors.As(err, &ie) || len(ie.All) != 4 {
		t.Fatalf("err = %v, want one InputError joining 4 problems", err)
	}
	for _, f := range []string{"activity_type", "activity_content", "theme_start_id", "theme_directory_part"} {
		if !strings.Contains(err.Error(), f+":") {
			t.Errorf("error %q does not name %s", err, f)
		}
	}
	e.sameSnapshot(before)
}
