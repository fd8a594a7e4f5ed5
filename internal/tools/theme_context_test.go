package tools

import (
	"os"
	"strings"
	"testing"
)

const ctxArgs = `"theme_name":"Research","expert_role":"a patient historian","expert_perspective":["sources first"],"constraints":["no guessing"],"expected_outcome":["a timeline"]`

func TestCreateThemeExpertContext(t *testing.T) {
	e := newEnv(t)
	res, err := call(e.tl, e.tl.CreateThemeExpertContext, args(t, `{`+ctxArgs+`,"theme_start_id":"20250101000000","theme_directory_part":"research"}`))
	if err != nil {
		t.Fatal(err)
	}
	want := "artifacts/20250101000000_research/contexts/" + string(testID) + ".md"
	if res.File != want {
		t.Fatalf("file = %q, want %q", res.File, want)
	}
	got := e.read(want)
	for _, s := range []string{"**a patient historian**", "## Perspective\n- sources first", "## Constraints\n- no guessing", "## Expected outcome\n- a timeline"} {
		if !strings.Contains(got, s) {
			t.Errorf("context lacks %q:\n%s", s, got)
		}
	}
	// A second one in the same heartbeat is refused; the first stays.
	before := e.snapshot()
	_, err = call(e.tl, e.tl.CreateThemeExpertContext, args(t, `{`+ctxArgs+`,"theme_start_id":"20250101000000","theme_directory_part":"research"}`))
	wantInputError(t, err, "", "already exists")
	e.sameSnapshot(before)

	for _, tc := range []struct {
		name, args, field string
		want              []string
	}{
		{"no such theme", `{` + ctxArgs + `,"theme_start_id":"20250101000000","theme_directory_part":"nothing"}`, "theme_start_id", []string{"does not exist"}},
		{"several bad fields", `{"theme_name":"x","theme_start_id":"1","theme_directory_part":"research"}`, "", []string{"theme_start_id", "expert_role", "expert_perspective", "constraints", "expected_outcome"}},
		{"path in part", `{` + ctxArgs + `,"theme_start_id":"20250101000000","theme_directory_part":"../x"}`, "theme_directory_part", []string{"path separator"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := e.snapshot()
			_, err := call(e.tl, e.tl.CreateThemeExpertContext, args(t, tc.args))
			wantInputError(t, err, tc.field, tc.want...)
			e.sameSnapshot(before)
		})
	}
}

func TestGetLatestThemeContext(t *testing.T) {
	e := newEnv(t)
	parent := "artifacts/20250101000000_research"
	sub := parent + "/subthemes/20250101100000_tides"
	if err := os.MkdirAll(e.ws.Path(sub+"/histories"), 0o755); err != nil {
		t.Fatal(err)
	}
	subArgs := `{"theme_start_id":"20250101100000","theme_directory_part":"tides","parent_theme_start_id":"20250101000000","parent_theme_directory_part":"research"}`
	topArgs := `{"theme_start_id":"20250101000000","theme_directory_part":"research"}`

	res, err := call(e.tl, e.tl.GetLatestThemeContext, args(t, topArgs))
	if err != nil || res.Found {
		t.Fatalf("no contexts yet: %+v, %v", res, err)
	}
	e.write(parent+"/contexts/20250101000000.md", "old", e.now())
	e.write(parent+"/contexts/20250102000000.md", "new", e.now())
	e.write(parent+"/contexts/notes.md", "not a context", e.now())
	before := e.snapshot()
	res, _ = call(e.tl, e.tl.GetLatestThemeContext, args(t, topArgs))
	if res.File != parent+"/contexts/20250102000000.md" || res.Content != "new" || res.Inherited {
		t.Fatalf("top theme = %+v, want the newest by ID", res)
	}
	res, _ = call(e.tl, e.tl.GetLatestThemeContext, args(t, subArgs))
	if !res.Inherited || res.Content != "new" {
		t.Fatalf("sub-theme without its own = %+v, want the parent's, inherited", res)
	}
	e.sameSnapshot(before)
	e.write(sub+"/contexts/20250103000000.md", "own", e.now())
	res, _ = call(e.tl, e.tl.GetLatestThemeContext, args(t, subArgs))
	if res.Inherited || res.Content != "own" {
		t.Fatalf("sub-theme with its own = %+v", res)
	}
	_, err = call(e.tl, e.tl.GetLatestThemeContext, args(t, `{"theme_start_id":"20250101000000","theme_directory_part":"nothing"}`))
	wantInputError(t, err, "theme_start_id", "does not exist")
}
