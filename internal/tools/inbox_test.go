package tools

import (
	"strings"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/lang"
)

func TestPreviewNextTheme(t *testing.T) {
	tests := []struct {
		name      string
		files     map[string]string
		wantFound bool
		wantFile  string
		wantLeft  int
	}{
		{name: "empty box", wantFound: false},
		{name: "only drafts and processed", files: map[string]string{"themebox/draft.a.md": "x", "themebox/processed.b.md": "x", "themebox/notes.txt": "x"}},
		{name: "first by name", files: map[string]string{"themebox/002_sea.md": "# Sea", "themebox/001_sky.md": "# Sky", "themebox/draft.000.md": "x"},
			wantFound: true, wantFile: "themebox/001_sky.md", wantLeft: 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			for rel, c := range tc.files {
				e.write(rel, c, e.now())
			}
			before := e.snapshot()
			res, err := e.tl.PreviewNextTheme(noInput{})
			if err != nil {
				t.Fatal(err)
			}
			e.sameSnapshot(before) // read only
			if res.Found != tc.wantFound || res.File != tc.wantFile || res.Remaining != tc.wantLeft {
				t.Fatalf("PreviewNextTheme = %+v, want found %v file %q remaining %d", res, tc.wantFound, tc.wantFile, tc.wantLeft)
			}
			if tc.wantFound && (res.Content != tc.files[tc.wantFile] || !strings.Contains(res.Text(lang.English), "start_theme") || !strings.Contains(res.Next, "themebox_file")) {
				t.Fatalf("content %q / text %q: want the file's text and how to take it", res.Content, res.Text(lang.English))
			}
		})
	}
	e := newEnv(t)
	_, err := call(e.tl, e.tl.PreviewNextTheme, args(t, `{"type":"themebox"}`))
	wantInputError(t, err, "type", "no parameters")
}

func TestCheckAndProcessItem(t *testing.T) {
	e := newEnv(t)
	e.write("feedbackbox/b_later.md", "Later.", e.now())
	e.write("feedbackbox/a_first.md", "Please slow down.", e.now())
	e.write("feedbackbox/draft.z.md", "not ready", e.now())
	res, err := e.tl.CheckAndProcessItem(noInput{})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Found || res.File != "feedbackbox/a_first.md" || res.Processed != "feedbackbox/processed.a_first.md" || res.Content != "Please slow down." || res.Remaining != 1 {
		t.Fatalf("first call = %+v", res)
	}
	if e.exists("feedbackbox/a_first.md") || e.read("feedbackbox/processed.a_first.md") != "Please slow down." {
		t.Fatal("the item was not renamed processed.<name> with its content kept")
	}
	res, _ = e.tl.CheckAndProcessItem(noInput{})
	if res.File != "feedbackbox/b_later.md" || res.Remaining != 0 {
		t.Fatalf("second call = %+v", res)
	}
	res, _ = e.tl.CheckAndProcessItem(noInput{})
	if res.Found || !e.exists("feedbackbox/draft.z.md") {
		t.Fatalf("third call = %+v, want nothing left and the draft untouched", res)
	}
	// A processed.<name> that already exists is never overwritten.
	e.write("feedbackbox/c.md", "new", e.now())
	e.write("feedbackbox/processed.c.md", "old", e.now())
	_, err = e.tl.CheckAndProcessItem(noInput{})
	wantInputError(t, err, "", "already exists")
	if e.read("feedbackbox/processed.c.md") != "old" || e.read("feedbackbox/c.md") != "new" {
		t.Fatal("a clash lost a file")
	}
}

func TestReportToolUsage(t *testing.T) {
	e := newEnv(t)
	res, err := call(e.tl, e.tl.ReportToolUsage, args(t, `{"tool_id":"gemini.google.search","status":"quota_exceeded"}`))
	if err != nil {
		t.Fatal(err)
	}
	wantUntil := e.now().Add(60 * time.Minute).Format(time.RFC3339)
	if res.Marker != "stats/lock/gemini.google.search" || res.Until != wantUntil || e.read(res.Marker) != "until: "+wantUntil+"\n" {
		t.Fatalf("lock = %+v, file %q; want until %s", res, e.read(res.Marker), wantUntil)
	}
	// The text says the time in the one local form every other text uses.
	if text := res.Text(lang.English); !strings.Contains(text, "lock until "+e.now().Add(60*time.Minute).Format("15:04:05")+" (") {
		t.Errorf("English text: %q", text)
	}
	res, err = call(e.tl, e.tl.ReportToolUsage, args(t, `{"tool_id":"gemini.google.search","status":"success"}`))
	if err != nil {
		t.Fatal(err)
	}
	wantUntil = e.now().Add(10 * time.Minute).Format(time.RFC3339)
	if res.Marker != "stats/cooldown/gemini.google.search" || res.Until != wantUntil || res.Cleared != "stats/lock/gemini.google.search" || e.exists("stats/lock/gemini.google.search") {
		t.Fatalf("success = %+v; want a 10m cooldown and the lock lifted", res)
	}
	for _, tc := range []struct {
		name, args, field string
		want              []string
	}{
		{"missing both", `{}`, "", []string{"tool_id", "status"}},
		{"path in ID", `{"tool_id":"../x","status":"success"}`, "tool_id", []string{"not a tool ID"}},
		{"dot first", `{"tool_id":".hidden","status":"success"}`, "tool_id", []string{"not a tool ID"}},
		{"bad status", `{"tool_id":"x","status":"failed"}`, "status", []string{"quota_exceeded"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := e.snapshot()
			_, err := call(e.tl, e.tl.ReportToolUsage, args(t, tc.args))
			wantInputError(t, err, tc.field, tc.want...)
			e.sameSnapshot(before)
		})
	}
}

// The count of items left is said of the others: after a preview the item
// shown still waits, so "no unprocessed item is left" would be false; and
// the English counts without "(s)".
func TestInboxCountsTheOthers(t *testing.T) {
	for _, tc := range []struct {
		remaining int
		l         lang.Lang
		want      string
	}{
		{0, lang.English, "No other unprocessed item waits there."},
		{1, lang.English, "1 more unprocessed item waits there."},
		{2, lang.English, "2 more unprocessed items wait there."},
		{0, lang.Japanese, "ほかに未処理のフィードバックはありません。"},
		{2, lang.Japanese, "ほかに未処理のフィードバックが2件あります。"},
	} {
		r := &InboxItemResult{Found: true, File: "feedbackbox/next.md", Content: "x", Remaining: tc.remaining}
		if got := r.Text(tc.l); !strings.Contains(got, tc.want) {
			t.Errorf("%d left, %s: %q, want %q", tc.remaining, tc.l, got, tc.want)
		}
	}
	// A preview names the others as theme ideas, the word the docs use.
	for _, tc := range []struct {
		remaining int
		l         lang.Lang
		want      string
	}{
		{0, lang.English, "No other theme idea waits there."},
		{1, lang.English, "1 more theme idea waits there."},
		{2, lang.English, "2 more theme ideas wait there."},
		{0, lang.Japanese, "ほかにテーマ案はありません。"},
		{1, lang.Japanese, "ほかにテーマ案が1件あります。"},
	} {
		r := &InboxItemResult{Found: true, File: "themebox/next.md", Content: "x", Remaining: tc.remaining}
		if got := r.Text(tc.l); !strings.Contains(got, tc.want) {
			t.Errorf("%d left, %s: %q, want %q", tc.remaining, tc.l, got, tc.want)
		}
	}
}
