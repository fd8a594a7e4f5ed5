package tools

import (
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/lang"
	"github.com/ai-heart/ai-heart/internal/state"
	"github.com/ai-heart/ai-heart/internal/testutil"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

func TestStartDeepWork(t *testing.T) {
	tests := []struct {
		name     string
		json     string
		mode     workspace.Mode
		deadline time.Duration // after now; 0 for flexible
	}{
		{"flexible", `{"mode":"flexible","activity_description":"refactor the parser"}`, workspace.Flexible, 0},
		{"strict 1 min", `{"mode":"strict","activity_description":"refactor the parser","planned_duration_minutes":1}`, workspace.Strict, time.Minute},
		{"strict 30 min", `{"mode":"Strict","activity_description":"refactor the parser","planned_duration_minutes":30}`, workspace.Strict, 30 * time.Minute},
		{"strict quoted number", `{"mode":"strict","activity_description":"refactor the parser","planned_duration_minutes":"15"}`, workspace.Strict, 15 * time.Minute},
		{"flexible null minutes", `{"mode":"flexible","activity_description":"refactor the parser","planned_duration_minutes":null}`, workspace.Flexible, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			res, err := call(e.tl, e.tl.StartDeepWork, args(t, tc.json))
			if err != nil {
				t.Fatal(err)
			}
			rel := "stats/deep_work/" + string(testID) + ".txt"
			if res.Path != rel {
				t.Errorf("path = %s, want %s", res.Path, rel)
			}
			d, err := workspace.ParseDeclaration(testID, []byte(e.read(rel)), time.UTC)
			if err != nil {
				t.Fatal(err)
			}
			if d.Mode != tc.mode || d.Activity != "refactor the parser" || !d.DeclaredAt.Equal(e.now().Truncate(time.Second)) {
				t.Errorf("declaration = %+v", d)
			}
			if tc.deadline > 0 && !d.Deadline.Equal(e.now().Add(tc.deadline)) {
				t.Errorf("deadline = %s, want now + %s", d.Deadline, tc.deadline)
			}
			// The deadline in the one local form the expiry notice and the
			// status reply use too.
			if at := "until " + e.now().Add(tc.deadline).Format("15:04:05") + " ("; tc.deadline > 0 && !strings.Contains(res.Rules, at) {
				t.Errorf("rules do not say %q: %s", at, res.Rules)
			}
			// Its length as every other English duration reads (1m4s), not "1 min".
			if strings.Contains(res.Rules, " min)") {
				t.Errorf("rules say the length in a second style: %s", res.Rules)
			}
			if !strings.Contains(res.Rules, string(tc.mode)) && !strings.Contains(strings.ToLower(res.Rules), string(tc.mode)) {
				t.Errorf("rules do not explain %s: %s", tc.mode, res.Rules)
			}
		})
	}
}

func TestStartDeepWorkBadCalls(t *testing.T) {
	desc := func(n int) string { return strings.Repeat("x", n) }
	tests := []struct {
		name, json, field string
		words             []string
	}{
		{"missing mode", `{"activity_description":"refactor the parser"}`, "mode", []string{"flexible", "strict"}},
		{"bad mode", `{"mode":"hard","activity_description":"refactor the parser"}`, "mode", []string{"hard"}},
		{"description 9 chars", `{"mode":"flexible","activity_description":"` + desc(9) + `"}`, "activity_description", []string{"9", "10 to 200"}},
		{"description 201 chars", `{"mode":"flexible","activity_description":"` + desc(201) + `"}`, "activity_description", []string{"201"}},
		{"description 9 chars after newline folding", `{"mode":"flexible","activity_description":"\n\n` + desc(9) + `\n"}`, "activity_description", []string{"9"}},
		{"strict without minutes", `{"mode":"strict","activity_description":"refactor the parser"}`, "planned_duration_minutes", []string{"required", "1 to 30"}},
		{"strict 0 min", `{"mode":"strict","activity_description":"refactor the parser","planned_duration_minutes":0}`, "planned_duration_minutes", []string{"0", "1..30"}},
		{"strict 31 min", `{"mode":"strict","activity_description":"refactor the parser","planned_duration_minutes":31}`, "planned_duration_minutes", []string{"31", "1..30"}},
		{"strict fractional", `{"mode":"strict","activity_description":"refactor the parser","planned_duration_minutes":2.5}`, "planned_duration_minutes", []string{"whole"}},
		{"strict word", `{"mode":"strict","activity_description":"refactor the parser","planned_duration_minutes":"ten"}`, "planned_duration_minutes", []string{"whole"}},
		{"flexible with minutes", `{"mode":"flexible","activity_description":"refactor the parser","planned_duration_minutes":10}`, "planned_duration_minutes", []string{"strict mode only"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			before := e.snapshot()
			_, err := call(e.tl, e.tl.StartDeepWork, args(t, tc.json))
			wantInputError(t, err, tc.field, tc.words...)
			e.sameSnapshot(before)
		})
	}
	for _, n := range []int{10, 200} {
		t.Run(fmt.Sprintf("description %d chars ok", n), func(t *testing.T) {
			e := newEnv(t)
			if _, err := call(e.tl, e.tl.StartDeepWork, args(t, `{"mode":"flexible","activity_description":"`+strings.Repeat("深", n)+`"}`)); err != nil {
				t.Errorf("%d characters refused: %v", n, err)
			}
		})
	}
	t.Run("no current ID", func(t *testing.T) {
		e := newEnv(t)
		os.Remove(e.ws.Path(workspace.CurrentIDFile))
		before := e.snapshot()
		_, err := call(e.tl, e.tl.StartDeepWork, args(t, `{"mode":"flexible","activity_description":"refactor the parser"}`))
		wantInputError(t, err, "", "watchdog")
		e.sameSnapshot(before)
	})
}

// A second declaration in a later heartbeat expires the first; a second one
// in the same heartbeat is refused and writes nothing.
func TestStartDeepWorkSupersedes(t *testing.T) {
	e := newEnv(t)
	if _, err := call(e.tl, e.tl.StartDeepWork, args(t, `{"mode":"flexible","activity_description":"first long task"}`)); err != nil {
		t.Fatal(err)
	}
	before := e.snapshot()
	_, err := call(e.tl, e.tl.StartDeepWork, args(t, `{"mode":"strict","activity_description":"second long task","planned_duration_minutes":5}`))
	wantInputError(t, err, "", "already exists", "keep working under it", "next heartbeat ID", "every 1m")
	e.sameSnapshot(before)

	next := workspace.ID("20250102030505")
	if err := e.ws.WriteCurrentID(next); err != nil {
		t.Fatal(err)
	}
	e.clk.Advance(time.Minute)
	res, err := call(e.tl, e.tl.StartDeepWork, args(t, `{"mode":"strict","activity_description":"second long task","planned_duration_minutes":5}`))
	if err != nil {
		t.Fatal(err)
	}
	wantExpired := "stats/deep_work/" + string(testID) + ".expired.txt"
	if len(res.Expired) != 1 || res.Expired[0] != wantExpired || !e.exists(wantExpired) || e.exists("stats/deep_work/"+string(testID)+".txt") {
		t.Errorf("expired = %v; want the first declaration renamed to %s", res.Expired, wantExpired)
	}
	if !e.exists("stats/deep_work/" + string(next) + ".txt") {
		t.Error("new declaration missing")
	}
}

// Any file for the current ID, whatever its state, refuses a declaration;
// every older active one is expired, readable or not, and others are left.
func TestStartDeepWorkFolder(t *testing.T) {
	t.Run("completed for this ID", func(t *testing.T) {
		e := newEnv(t)
		e.write("stats/deep_work/"+string(testID)+".completed.txt", "x", e.now())
		before := e.snapshot()
		_, err := call(e.tl, e.tl.StartDeepWork, args(t, `{"mode":"flexible","activity_description":"another long task"}`))
		wantInputError(t, err, "", string(testID)+".completed.txt", "already exists", "next heartbeat ID (it mints one every 1m")
		// Nothing to keep working under: the declaration has completed.
		if strings.Contains(err.Error(), "keep working under it") {
			t.Errorf("refusal after a completed declaration: %v", err)
		}
		e.sameSnapshot(before)
	})
	t.Run("older active ones", func(t *testing.T) {
		e := newEnv(t)
		e.write("stats/deep_work/20250102020000.txt", "not a declaration", e.now())
		e.write("stats/deep_work/20250102010000.txt", "制限タイプ: flexible\n活動予定内容: 論文の読解\n", e.now())
		e.write("stats/deep_work/20250102000000.completed.txt", "x", e.now())
		e.write("stats/deep_work/notes.txt", "x", e.now())
		res, err := call(e.tl, e.tl.StartDeepWork, args(t, `{"mode":"flexible","activity_description":"another long task"}`))
		if err != nil {
			t.Fatal(err)
		}
		want := []string{"stats/deep_work/20250102010000.expired.txt", "stats/deep_work/20250102020000.expired.txt"}
		if !reflect.DeepEqual(res.Expired, want) {
			t.Errorf("StartDeepWork expired %v, want %v", res.Expired, want)
		}
		if !e.exists("stats/deep_work/20250102000000.completed.txt") || !e.exists("stats/deep_work/notes.txt") {
			t.Error("a file that is not an older active declaration was touched")
		}
	})
}

// The strict maximum comes from the watchdog's max_strict_deep_work.
func TestStartDeepWorkConfiguredMax(t *testing.T) {
	for _, tc := range []struct {
		minutes int
		ok      bool
	}{{44, true}, {45, true}, {46, false}} {
		t.Run(fmt.Sprintf("%dmin", tc.minutes), func(t *testing.T) {
			e := newEnv(t)
			e.tl.Thresholds.MaxStrictDeepWork = config.Duration(45 * time.Minute)
			_, err := call(e.tl, e.tl.StartDeepWork, args(t, fmt.Sprintf(`{"mode":"strict","activity_description":"refactor the parser","planned_duration_minutes":%d}`, tc.minutes)))
			if (err == nil) != tc.ok {
				t.Errorf("%d min with max 45: err = %v, want ok %v", tc.minutes, err, tc.ok)
			}
		})
	}
}

// Flexible deep work does not restart the inactivity count, and its reply
// gives no deadline to beat (GEMINI.md: do not watch the clock): it says
// how the warning comes, and "now" only when the count has passed it.
func TestFlexibleDeepWorkGivesNoDeadline(t *testing.T) {
	for _, l := range []lang.Lang{lang.English, lang.Japanese} {
		e := newEnv(t)
		e.tl.Lang = l
		e.write(testThemeHist+"/20250102020000.md", "## Activity type\ncreation\n", e.now().Add(-4*time.Minute))
		since := e.now().Add(-3 * time.Minute)
		e.writeStateWith(t, state.State{PulseAt: e.now(), Delivery: "exec", Work: state.Work{Mode: state.WorkWorking, Since: &since}})
		res, err := call(e.tl, e.tl.StartDeepWork, args(t, `{"mode":"flexible","activity_description":"reading a long paper"}`))
		if err != nil {
			t.Fatal(err)
		}
		if at := e.now().Add(2 * time.Minute).Format("15:04:05"); strings.Contains(res.Rules, at) {
			t.Errorf("%s: the rules give a deadline %s:\n%s", l, at, res.Rules)
		}
		if want := map[lang.Lang]string{lang.English: "declaring does not restart that count", lang.Japanese: "宣言しても、この時間は数え直されません"}[l]; !strings.Contains(res.Rules, want) {
			t.Errorf("%s: %q lacks %q", l, res.Rules, want)
		}
		if l == lang.Japanese {
			testutil.CheckJapanese(t, "flexible rules", res.Rules)
		}
		// Past the warning already: write one now.
		e = newEnv(t)
		e.tl.Lang = l
		since = e.now().Add(-6 * time.Minute)
		e.writeStateWith(t, state.State{PulseAt: e.now(), Delivery: "exec", Work: state.Work{Mode: state.WorkWorking, Since: &since}})
		res, err = call(e.tl, e.tl.StartDeepWork, args(t, `{"mode":"flexible","activity_description":"reading a long paper"}`))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(res.Rules, tr(l, "the inactivity warning is already due: write one now")) {
			t.Errorf("%s: overdue: %s", l, res.Rules)
		}
	}
}

// Heartbeats keep arriving during strict deep work (an inbox or a timer
// does not stop): the reply says they need no answer of their own.
func TestStrictSaysHeartbeatsNeedNoAnswer(t *testing.T) {
	for _, l := range []lang.Lang{lang.English, lang.Japanese} {
		e := newEnv(t)
		e.tl.Lang = l
		res, err := call(e.tl, e.tl.StartDeepWork, args(t, `{"mode":"strict","activity_description":"checking the tide tables","planned_duration_minutes":20}`))
		if err != nil {
			t.Fatal(err)
		}
		want := map[lang.Lang]string{lang.English: "Heartbeats that arrive meanwhile need no answer of their own", lang.Japanese: "それだけのための応答は要りません"}[l]
		if !strings.Contains(res.Rules, want) {
			t.Errorf("%s: %s", l, res.Rules)
		}
	}
}
