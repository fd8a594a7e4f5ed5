package tools

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/ai-heart/ai-heart/internal/lang"
)

// A call with several bad parameters reads as one error:
// each part with its own fix, then one closing sentence, never
// "Fix: ... Fix: fix each one as it says".
func TestSeveralBadParametersReadAsOneError(t *testing.T) {
	e := newEnv(t)
	_, err := call(e.tl, e.tl.ReportToolUsage, args(t, `{}`))
	var ie *InputError
	if !errors.As(err, &ie) || len(ie.All) != 2 {
		t.Fatalf("err = %v, want two bad parameters", err)
	}
	en := ie.In(lang.English)
	if !strings.HasPrefix(en, "2 parameters need fixing. (1) tool_id: ") || !strings.HasSuffix(en, ". Fix each one as it says, then call again.") ||
		strings.Count(en, "Fix each one") != 1 || strings.Contains(en, "Fix: fix") || strings.Contains(en, "; (2)") {
		t.Errorf("English: %s", en)
	}
	if ja := ie.In(lang.Japanese); !strings.HasPrefix(ja, "パラメータに2件の誤りがあります。（1）tool_id") || !strings.HasSuffix(ja, "。それぞれ直してから、もう一度呼んでください。") ||
		!strings.Contains(ja, "。（2）status") || strings.Contains(ja, "。 ") {
		t.Errorf("Japanese: %s", ja)
	}
}

// A length out of range says the range once, in the fix: said in the
// problem too, the same range was read twice in one error.
func TestALengthOutOfRangeSaysTheRangeOnce(t *testing.T) {
	e := newEnv(t)
	for _, desc := range []string{"short", strings.Repeat("long ", 60)} {
		_, err := call(e.tl, e.tl.StartDeepWork, args(t, `{"mode":"flexible","activity_description":"`+desc+`"}`))
		var ie *InputError
		if !errors.As(err, &ie) {
			t.Fatalf("%q: err = %v, want a bad parameter", desc, err)
		}
		for _, tc := range []struct {
			l     lang.Lang
			rng   string
			tells string
		}{{lang.English, fmt.Sprintf("%d to %d", minDescLen, maxDescLen), "too "}, {lang.Japanese, fmt.Sprintf("%d〜%d", minDescLen, maxDescLen), "すぎます"}} {
			if got := ie.In(tc.l); strings.Count(got, tc.rng) != 1 || !strings.Contains(got, tc.tells) {
				t.Errorf("%s: %s", tc.l, got)
			}
		}
	}
}

// The status names an introspection threshold that is due "shortly", not
// "in 0s": a count at zero reads as a clock that stopped.
func TestIntrospectionDueNowIsShortly(t *testing.T) {
	zero := int64(0)
	r := &ElapsedResult{Work: workWorking, Thresholds: []ThresholdStatus{{Check: "introspection", Level: "warning", RemainingSeconds: &zero}}}
	for l, want := range map[lang.Lang]string{lang.English: "introspection warning shortly", lang.Japanese: "内省（`introspection`）の警告はまもなく"} {
		if got := r.Text(l); !strings.Contains(got, want) {
			t.Errorf("%s: %s", l, got)
		}
	}
}

// The same for the inactivity threshold: at zero its time stands with
// "shortly", never "(in 0s)".
func TestInactivityDueNowIsShortly(t *testing.T) {
	zero := int64(0)
	r := &ElapsedResult{Work: workWorking, Thresholds: []ThresholdStatus{{Check: "inactivity", Level: "warning", RemainingSeconds: &zero, Deadline: "2026-11-27T09:00:00Z"}}}
	for l, want := range map[lang.Lang]string{lang.English: "inactivity warning at 09:00:00, shortly", lang.Japanese: "無活動（`inactivity`）の警告は09:00:00（まもなく）"} {
		if got := r.Text(l); !strings.Contains(got, want) || strings.Contains(got, "0s") || strings.Contains(got, "あと0秒") {
			t.Errorf("%s: %s", l, got)
		}
	}
}

// Every length error names the bound the value broke, in its fix: the
// theme's title and the expert's role once said only "too long".
func TestEveryLengthErrorNamesItsBound(t *testing.T) {
	e := newEnv(t)
	long := strings.Repeat("x", 600)
	for _, tc := range []struct {
		name  string
		fn    any
		json  string
		bound int
	}{
		{"checkpoint", e.tl.Checkpoint, `{"current_activity":"` + long + `"}`, maxCheckpointLen},
		{"start_theme", e.tl.StartTheme, `{"theme_name":"` + long + `","theme_directory_part":"x","reason":"r"}`, maxThemeNameLen},
		{"context theme_name", e.tl.CreateThemeExpertContext, `{` + ctxArgs + `,"theme_start_id":"20250101000000","theme_directory_part":"research","theme_name":"` + long + `"}`, maxThemeNameLen},
		{"context expert_role", e.tl.CreateThemeExpertContext, `{` + ctxArgs + `,"theme_start_id":"20250101000000","theme_directory_part":"research","expert_role":"` + long + `"}`, maxRoleLen},
	} {
		var err error
		switch fn := tc.fn.(type) {
		case func(checkpointInput) (*CheckpointResult, error):
			_, err = call(e.tl, fn, args(t, tc.json))
		case func(startThemeInput) (*StartThemeResult, error):
			_, err = call(e.tl, fn, args(t, tc.json))
		case func(createThemeExpertContextInput) (*ThemeContextResult, error):
			_, err = call(e.tl, fn, args(t, tc.json))
		default:
			t.Fatalf("%s: no call for %T", tc.name, tc.fn)
		}
		var ie *InputError
		if !errors.As(err, &ie) {
			t.Fatalf("%s: err = %v, want a bad parameter", tc.name, err)
		}
		for _, l := range []lang.Lang{lang.English, lang.Japanese} {
			if got := ie.In(l); !strings.Contains(got, fmt.Sprint(tc.bound)) {
				t.Errorf("%s (%s): %s", tc.name, l, got)
			}
		}
	}
}

// Paused, nothing is judged: the status reply gives no count and no
// threshold to come beside "not judged meanwhile".
func TestPausedStatusJudgesNothing(t *testing.T) {
	left := int64(3)
	r := &ElapsedResult{Work: workWorking, StretchStart: "2026-11-27T13:22:58Z", Quiet: &QuietStatus{Why: "paused"},
		Thresholds: []ThresholdStatus{{Check: "inactivity", Level: "warning", RemainingSeconds: &left, Deadline: "2026-11-27T13:23:03Z"}}}
	for _, l := range []lang.Lang{lang.English, lang.Japanese} {
		got := r.Text(l)
		for _, bad := range []string{"Inactivity counts from", "Next:", "threshold is crossed", "無活動の時間は", "次：", "超えていません"} {
			if strings.Contains(got, bad) {
				t.Errorf("%s: %q in a paused reply:\n%s", l, bad, got)
			}
		}
	}
}

// A number passed where a string belongs is echoed whole, as the agent
// wrote it: a heartbeat ID in scientific notation (2.0261207141141e+13)
// is one the agent cannot recognise. In Japanese it reads 「数値の…」,
// not a parenthesis inside the error's own.
func TestANumberIsEchoedWhole(t *testing.T) {
	e := newEnv(t)
	_, err := call(e.tl, e.tl.EndTheme, args(t, `{"theme_start_id":20261207141155,"theme_directory_part":"moon"}`))
	var ie *InputError
	if !errors.As(err, &ie) {
		t.Fatalf("err = %v, want a bad parameter", err)
	}
	for _, tc := range []struct {
		l    lang.Lang
		want string
	}{{lang.English, "the number 20261207141155"}, {lang.Japanese, "数値の20261207141155"}} {
		got := ie.In(tc.l)
		if !strings.Contains(got, tc.want) || strings.Contains(got, "e+") {
			t.Errorf("%s: %s, want %q and no exponent", tc.l, got, tc.want)
		}
		if tc.l == lang.Japanese && strings.Contains(got, "（数値（") {
			t.Errorf("Japanese: nested parentheses in %s", got)
		}
	}
}
