package tools

import (
	"fmt"
	"strings"
	"testing"
)

const topTheme = `"theme_start_id":"20250101000000","theme_directory_part":"research"`

func TestGetLatestActivityLog(t *testing.T) {
	e := newEnv(t)
	for i := 1; i <= 12; i++ {
		e.write(fmt.Sprintf("%s/20250101%02d0000.md", testThemeHist, i), fmt.Sprintf("log %d", i), e.now())
	}
	e.write(testThemeHist+"/notes.md", "not a log", e.now())
	before := e.snapshot()
	res, err := call(e.tl, e.tl.GetLatestActivityLog, args(t, `{`+topTheme+`}`))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Logs) != 1 || res.Logs[0].Content != "log 12" || res.Total != 12 {
		t.Fatalf("default = %+v, want the newest only", res)
	}
	res, _ = call(e.tl, e.tl.GetLatestActivityLog, args(t, `{`+topTheme+`,"num_logs":10}`))
	if len(res.Logs) != 10 || res.Logs[0].Content != "log 12" || res.Logs[9].Content != "log 3" {
		t.Fatalf("10 = %d logs, first %q last %q", len(res.Logs), res.Logs[0].Content, res.Logs[len(res.Logs)-1].Content)
	}
	e.sameSnapshot(before)
	for _, tc := range []struct{ name, args, field, want string }{
		{"zero", `{` + topTheme + `,"num_logs":0}`, "num_logs", "outside 1..10"},
		{"eleven", `{` + topTheme + `,"num_logs":11}`, "num_logs", "outside 1..10"},
		{"fraction", `{` + topTheme + `,"num_logs":1.5}`, "num_logs", "whole number"},
		{"no theme", `{"theme_start_id":"20250101000000","theme_directory_part":"none"}`, "theme_start_id", "does not exist"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := call(e.tl, e.tl.GetLatestActivityLog, args(t, tc.args))
			wantInputError(t, err, tc.field, tc.want)
		})
	}
}

func TestListThemeArtifacts(t *testing.T) {
	e := newEnv(t)
	dir := "artifacts/20250101000000_research"
	for _, f := range []string{"a.txt", "b.md", "a/x.md", "a/deep/y.md", ".hidden", "subthemes/20250102000000_s/z.md"} {
		e.write(dir+"/"+f, "12345", e.now())
	}
	e.write(testThemeHist+"/20250101010000.md", "log", e.now())
	res, err := call(e.tl, e.tl.ListThemeArtifacts, args(t, `{`+topTheme+`}`))
	if err != nil {
		t.Fatal(err)
	}
	if got := paths(res); got != dir+"/a.txt,"+dir+"/b.md" || res.NextCursor != "" || res.Files[0].Size != 5 {
		t.Fatalf("top level = %s (cursor %q)", got, res.NextCursor)
	}
	// With sub-folders, two per page, following the cursor to the end.
	var all []string
	cursor := ""
	for page := 0; page < 5; page++ {
		a := `{` + topTheme + `,"include_subdirectories":true,"limit":2`
		if cursor != "" {
			a += `,"cursor":"` + cursor + `"`
		}
		res, err := call(e.tl, e.tl.ListThemeArtifacts, args(t, a+`}`))
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, strings.Split(paths(res), ",")...)
		if cursor = res.NextCursor; cursor == "" {
			break
		}
	}
	want := []string{dir + "/a.txt", dir + "/a/deep/y.md", dir + "/a/x.md", dir + "/b.md"}
	if strings.Join(all, ",") != strings.Join(want, ",") {
		t.Fatalf("paged = %v, want %v (histories, sub-themes and dot-files left out)", all, want)
	}
	_, err = call(e.tl, e.tl.ListThemeArtifacts, args(t, `{`+topTheme+`,"limit":500}`))
	wantInputError(t, err, "limit", "outside 1..200")
}

func paths(r *ArtifactsResult) string {
	var out []string
	for _, f := range r.Files {
		out = append(out, f.Path)
	}
	return strings.Join(out, ",")
}
