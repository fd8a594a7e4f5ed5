package tools

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/ai-heart/ai-heart/internal/lang"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

func TestStartTheme(t *testing.T) {
	e := newEnv(t)
	e.write("themebox/next.md", "please study X", e.now())
	res, err := call(e.tl, e.tl.StartTheme, args(t, `{"theme_name":"Study X\n# forged heading","theme_directory_part":"study_x","reason":"the user asked\n## Activity type\nintrospection",
		"activity_content":["read the request"],"themebox_file":"themebox/next.md"}`))
	if err != nil {
		t.Fatal(err)
	}
	folder := "artifacts/" + string(testID) + "_study_x"
	record := "artifacts/theme_histories/" + string(testID) + "_start_study_x.md"
	if res.ThemeFolder != folder || res.StartRecord != record || res.ThemeStartID != string(testID) || res.ThemeboxProcessed != "themebox/processed.next.md" {
		t.Errorf("StartTheme = %+v", res)
	}
	if fi, err := os.Stat(e.ws.Path(folder, "histories")); err != nil || !fi.IsDir() {
		t.Errorf("histories folder missing: %v", err)
	}
	rec := e.read(record)
	for _, line := range strings.Split(rec, "\n") {
		if strings.HasPrefix(line, "#") && line != "# Theme start: Study X # forged heading" && !strings.HasPrefix(line, "## ") {
			t.Errorf("record has a forged heading line %q", line)
		}
	}
	if strings.Contains(rec, "\n## Activity type") {
		t.Errorf("reason opened a section:\n%s", rec)
	}
	if e.exists("themebox/next.md") || !e.exists("themebox/processed.next.md") {
		t.Error("themebox file not renamed to processed.next.md")
	}
	// The new theme takes activity logs right away.
	if _, err := call(e.tl, e.tl.CreateActivityLog, args(t, `{"activity_type":"theme_start","activity_content":["started"],"theme_start_id":"`+string(testID)+`","theme_directory_part":"study_x"}`)); err != nil {
		t.Errorf("log into the new theme: %v", err)
	}

	// A sub-theme goes under the parent's subthemes/.
	sub, err := call(e.tl, e.tl.StartTheme, args(t, `{"theme_name":"Part of X","theme_directory_part":"part","reason":"narrower","parent_theme_start_id":"20250101000000","parent_theme_directory_part":"research"}`))
	if err != nil {
		t.Fatal(err)
	}
	if want := "artifacts/20250101000000_research/subthemes/" + string(testID) + "_part/histories"; sub.HistoriesFolder != want || !e.exists(want) {
		t.Errorf("sub-theme histories = %s, want %s", sub.HistoriesFolder, want)
	}
}

// A theme whose folder cannot be made leaves no start record behind, so the
// same call succeeds once the folder can be made.
func TestStartThemeRetryAfterFailedFolder(t *testing.T) {
	e := newEnv(t)
	e.tl.mkdirAll = func(string) error { return errors.New("disk full") }
	startArgs := `{"theme_name":"X","theme_directory_part":"x","reason":"r"}`
	_, err := call(e.tl, e.tl.StartTheme, args(t, startArgs))
	var ie *InputError
	if err == nil || errors.As(err, &ie) || !strings.Contains(err.Error(), "disk full") {
		t.Fatalf("StartTheme with mkdir failing = %v, want the mkdir error", err)
	}
	record := "artifacts/theme_histories/" + string(testID) + "_start_x.md"
	if e.exists(record) {
		t.Errorf("failed StartTheme left %s behind", record)
	}
	e.tl.mkdirAll = nil
	if _, err := call(e.tl, e.tl.StartTheme, args(t, startArgs)); err != nil {
		t.Fatalf("retry once the folder can be made: %v", err)
	}
	if !e.exists(record) || !e.exists("artifacts/"+string(testID)+"_x/histories") {
		t.Errorf("retry did not start the theme")
	}
}

func TestStartThemeBadCalls(t *testing.T) {
	tests := []struct {
		name, json, field string
		words             []string
	}{
		{"missing name", `{"theme_directory_part":"x","reason":"r"}`, "theme_name", []string{"required"}},
		{"missing part", `{"theme_name":"X","reason":"r"}`, "theme_directory_part", []string{"required"}},
		{"part dot-dot", `{"theme_name":"X","theme_directory_part":"..","reason":"r"}`, "theme_directory_part", []string{"dot"}},
		{"part NUL", `{"theme_name":"X","theme_directory_part":"a\u0000b","reason":"r"}`, "theme_directory_part", []string{"control"}},
		{"missing reason", `{"theme_name":"X","theme_directory_part":"x"}`, "reason", []string{"required"}},
		{"half parent", `{"theme_name":"X","theme_directory_part":"x","reason":"r","parent_theme_start_id":"20250101000000"}`, "parent_theme_directory_part", []string{"both"}},
		{"parent missing", `{"theme_name":"X","theme_directory_part":"x","reason":"r","parent_theme_start_id":"20250101000000","parent_theme_directory_part":"nope"}`, "parent_theme_start_id", []string{"does not exist"}},
		{"themebox missing", `{"theme_name":"X","theme_directory_part":"x","reason":"r","themebox_file":"nope.md"}`, "themebox_file", []string{"does not exist"}},
		{"themebox draft", `{"theme_name":"X","theme_directory_part":"x","reason":"r","themebox_file":"draft.idea.md"}`, "themebox_file", []string{"draft"}},
		{"themebox processed", `{"theme_name":"X","theme_directory_part":"x","reason":"r","themebox_file":"processed.old.md"}`, "themebox_file", []string{"already processed"}},
		{"themebox escape", `{"theme_name":"X","theme_directory_part":"x","reason":"r","themebox_file":"sub/x.md"}`, "themebox_file", []string{"separator"}},
		{"already started", `{"theme_name":"X","theme_directory_part":"dup","reason":"r"}`, "theme_directory_part", []string{"already"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			e.write("themebox/draft.idea.md", "d", e.now())
			e.write("themebox/processed.old.md", "d", e.now())
			if err := os.MkdirAll(e.ws.Path("artifacts/"+string(testID)+"_dup/histories"), 0o755); err != nil {
				t.Fatal(err)
			}
			before := e.snapshot()
			_, err := call(e.tl, e.tl.StartTheme, args(t, tc.json))
			wantInputError(t, err, tc.field, tc.words...)
			e.sameSnapshot(before)
		})
	}
	t.Run("artifacts symlinked outside", func(t *testing.T) {
		e := newEnv(t)
		outside := t.TempDir()
		if err := os.Rename(e.ws.Path("artifacts"), filepath.Join(outside, "artifacts")); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(filepath.Join(outside, "artifacts"), e.ws.Path("artifacts")); err != nil {
			t.Skipf("symlinks unavailable: %v", err)
		}
		_, err := call(e.tl, e.tl.StartTheme, args(t, `{"theme_name":"X","theme_directory_part":"x","reason":"r"}`))
		wantInputError(t, err, "theme_directory_part", "outside the workspace")
		if _, err := os.Stat(filepath.Join(outside, "artifacts", string(testID)+"_x")); err == nil {
			t.Error("created a theme outside the workspace")
		}
	})
	t.Run("no current ID", func(t *testing.T) {
		e := newEnv(t)
		os.Remove(e.ws.Path(workspace.CurrentIDFile))
		_, err := call(e.tl, e.tl.StartTheme, args(t, `{"theme_name":"X","theme_directory_part":"x","reason":"r"}`))
		wantInputError(t, err, "", "watchdog")
	})
}

func TestEndTheme(t *testing.T) {
	e := newEnv(t)
	res, err := call(e.tl, e.tl.EndTheme, args(t, `{"theme_start_id":"20250101000000","theme_directory_part":"research","reason":"done","achievements":["paper read","notes\nwritten"]}`))
	if err != nil {
		t.Fatal(err)
	}
	want := "artifacts/theme_histories/" + string(testID) + "_end_research.md"
	if res.EndRecord != want {
		t.Errorf("end record = %s, want %s", res.EndRecord, want)
	}
	if rec := e.read(want); !strings.Contains(rec, "- notes written\n") || !strings.Contains(rec, "theme_start_id: 20250101000000") {
		t.Errorf("end record:\n%s", rec)
	}
	before := e.snapshot()
	_, err = call(e.tl, e.tl.EndTheme, args(t, `{"theme_start_id":"20250101000000","theme_directory_part":"research","reason":"again","achievements":["x"]}`))
	wantInputError(t, err, "theme_directory_part", "already exists")
	e.sameSnapshot(before)
}

func TestEndThemeBadCalls(t *testing.T) {
	tests := []struct {
		name, json, field string
		words             []string
	}{
		{"theme missing", `{"theme_start_id":"20250101000000","theme_directory_part":"nope","reason":"r","achievements":["a"]}`, "theme_start_id", []string{"does not exist"}},
		{"wrong start id", `{"theme_start_id":"20250101000009","theme_directory_part":"research","reason":"r","achievements":["a"]}`, "theme_start_id", []string{"20250101000000"}},
		{"no achievements", `{"theme_start_id":"20250101000000","theme_directory_part":"research","reason":"r","achievements":[]}`, "achievements", []string{"at least one"}},
		{"missing reason", `{"theme_start_id":"20250101000000","theme_directory_part":"research","achievements":["a"]}`, "reason", []string{"required"}},
		{"sub-theme of missing parent", `{"theme_start_id":"20250101000000","theme_directory_part":"research","reason":"r","achievements":["a"],"parent_theme_start_id":"20250101000000","parent_theme_directory_part":"nope"}`, "parent_theme_start_id", []string{"does not exist"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			before := e.snapshot()
			_, err := call(e.tl, e.tl.EndTheme, args(t, tc.json))
			wantInputError(t, err, tc.field, tc.words...)
			e.sameSnapshot(before)
		})
	}
}

// themes.md: after a theme ends, the next one starts in a later heartbeat,
// never in the same one; the refusal writes nothing and says what to do.
func TestStartThemeRefusedInTheHeartbeatThatEndedOne(t *testing.T) {
	e := newEnv(t)
	if _, err := call(e.tl, e.tl.EndTheme, args(t, `{"theme_start_id":"20250101000000","theme_directory_part":"research","reason":"done","achievements":["paper read"]}`)); err != nil {
		t.Fatal(err)
	}
	before := e.snapshot()
	_, err := call(e.tl, e.tl.StartTheme, args(t, `{"theme_name":"Next","theme_directory_part":"next","reason":"r"}`))
	wantInputError(t, err, "", "ended in this heartbeat", "later heartbeat") // no parameter is wrong: it comes too soon
	e.sameSnapshot(before)
}

// The sub-theme's reply can be followed word for word: it names the
// parent pair create_activity_log needs too (it named only the theme's
// own pair, and a log given exactly that failed). In both languages.
func TestASubThemesReplyCanBeFollowedAsWritten(t *testing.T) {
	for _, l := range []lang.Lang{lang.English, lang.Japanese} {
		e := newEnv(t)
		sub, err := call(e.tl, e.tl.StartTheme, args(t, `{"theme_name":"Orbit","theme_directory_part":"orbit","reason":"narrower","parent_theme_start_id":"20250101000000","parent_theme_directory_part":"research"}`))
		if err != nil {
			t.Fatal(err)
		}
		text := sub.Text(l)
		// Every parameter the reply names, with the value it gives.
		named := regexp.MustCompile(`(theme_start_id|theme_directory_part|parent_theme_start_id|parent_theme_directory_part)[ ]?(?:「([^」]+)」|([0-9A-Za-z_]+))`)
		params := map[string]any{"activity_type": "creation", "activity_content": []string{"wrote"}}
		for _, m := range named.FindAllStringSubmatch(text, -1) {
			params[m[1]] = m[2] + m[3]
		}
		b, _ := json.Marshal(params)
		if _, err := call(e.tl, e.tl.CreateActivityLog, args(t, string(b))); err != nil {
			t.Errorf("%s: a log with what the reply names (%s) fails: %v\nreply: %s", l, b, err, text)
		}
	}
}
