package tools

import (
	"reflect"
	"testing"
)

// decoded runs a call's JSON through decode and validate, as the server
// does, and returns the input the tool would be given.
func decoded[In any, PIn interface {
	*In
	input
}](t *testing.T, e *env, s string) In {
	t.Helper()
	in, err := call[In, PIn](e.tl, func(in In) (*In, error) { return &in, nil }, args(t, s))
	if err != nil {
		t.Fatalf("%s: %v", s, err)
	}
	return *in
}

// Real clients are sloppy in known ways, and each way mcp-heart has always
// accepted stays accepted: a number sent as a string or as 2.0, one string
// for a list, a mode or activity type in other case or decorated, null for
// a parameter left out, an empty parent pair, blanks around text and empty
// list items, an artifact path absolute inside the workspace or with ./,
// a themebox file named with its folder.
func TestLenientCalls(t *testing.T) {
	e := newEnv(t)
	e.write("themebox/idea.md", "x", e.now())
	e.write(testThemeHist+"/../notes.md", "x", e.now())
	const theme = `"theme_start_id":" 20250101000000 ","theme_directory_part":"research"`

	dw := decoded[startDeepWorkInput](t, e, `{"mode":" STRICT ","activity_description":" a long\nread of tables ","planned_duration_minutes":" 20 "}`)
	if want := (startDeepWorkInput{Mode: "strict", ActivityDescription: "a long read of tables", PlannedDurationMinutes: 20}); dw != want {
		t.Errorf("start_deep_work decoded %+v, want %+v", dw, want)
	}
	for _, typ := range []string{"Thinking", "THINKING", "**thinking**", "`thinking`", "思考"} {
		log := decoded[createActivityLogInput](t, e, `{"activity_type":"`+typ+`","activity_content":" one point ","artifacts":["./artifacts/20250101000000_research/notes.md","`+e.ws.Root+`/artifacts/20250101000000_research/notes.md"],"evaluation":null,`+theme+`,"parent_theme_start_id":"","parent_theme_directory_part":null}`)
		if log.typ != "thinking" || !reflect.DeepEqual(log.ActivityContent, []string{"one point"}) || log.Evaluation != "" || log.theme.Parent != nil || log.theme.StartID != testThemeID {
			t.Errorf("create_activity_log %q decoded %+v", typ, log)
		}
		if want := []string{"artifacts/20250101000000_research/notes.md", "artifacts/20250101000000_research/notes.md"}; !reflect.DeepEqual(log.Artifacts, want) {
			t.Errorf("artifacts = %q, want %q", log.Artifacts, want)
		}
	}
	ctx := decoded[createThemeExpertContextInput](t, e, `{`+theme+`,"theme_name":"T","expert_role":"r","expert_perspective":["a",""," ","b "],"constraints":"c","expected_outcome":["d"]}`)
	if !reflect.DeepEqual(ctx.ExpertPerspective, []string{"a", "b"}) || !reflect.DeepEqual(ctx.Constraints, []string{"c"}) {
		t.Errorf("lists decoded %q and %q", ctx.ExpertPerspective, ctx.Constraints)
	}
	for _, box := range []string{"idea.md", "themebox/idea.md", `themebox\\idea.md`} {
		st := decoded[startThemeInput](t, e, `{"theme_name":"T","theme_directory_part":"t","reason":"r","themebox_file":"`+box+`"}`)
		if st.ThemeboxFile != "idea.md" {
			t.Errorf("themebox_file %q decoded %q", box, st.ThemeboxFile)
		}
	}
	for _, n := range []string{`2`, `2.0`, `"2"`, `" 2 "`} {
		if got := decoded[getLatestActivityLogInput](t, e, `{`+theme+`,"num_logs":`+n+`}`).NumLogs; got != 2 {
			t.Errorf("num_logs %s decoded %d", n, got)
		}
	}
	if got := decoded[getLatestActivityLogInput](t, e, `{`+theme+`,"num_logs":null}`).NumLogs; got != 1 {
		t.Errorf("num_logs null decoded %d, want the default 1", got)
	}
	if got := decoded[checkThemeStatusInput](t, e, `{`+theme+`,"include_subthemes":null}`).IncludeSubthemes; !got {
		t.Error("include_subthemes null decoded false, want the default true")
	}
	if got := decoded[listThemeArtifactsInput](t, e, `{`+theme+`}`).Limit; got != defaultListLimit {
		t.Errorf("limit left out decoded %d, want %d", got, defaultListLimit)
	}
}

// What was never lenient stays strict: a status in other case, a number
// with a fraction, a boolean as a string, a list item that is no string.
func TestStrictWhereAlwaysStrict(t *testing.T) {
	e := newEnv(t)
	const theme = `"theme_start_id":"20250101000000","theme_directory_part":"research"`
	for _, tc := range []struct {
		name, field string
		run         func() error
	}{
		{"status case", "status", func() error {
			_, err := call(e.tl, e.tl.ReportToolUsage, args(t, `{"tool_id":"x","status":"Success"}`))
			return err
		}},
		{"fraction", "num_logs", func() error {
			_, err := call(e.tl, e.tl.GetLatestActivityLog, args(t, `{`+theme+`,"num_logs":"2.5"}`))
			return err
		}},
		{"boolean as a string", "include_subthemes", func() error {
			_, err := call(e.tl, e.tl.CheckThemeStatus, args(t, `{`+theme+`,"include_subthemes":"true"}`))
			return err
		}},
		{"list item", "activity_content[1]", func() error {
			_, err := call(e.tl, e.tl.CreateActivityLog, args(t, `{"activity_type":"thinking","activity_content":["a",2],`+theme+`}`))
			return err
		}},
	} {
		t.Run(tc.name, func(t *testing.T) { wantInputError(t, tc.run(), tc.field) })
	}
}
