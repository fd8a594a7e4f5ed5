package tools

import (
	"encoding/json"
	"maps"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/ai-heart/ai-heart/internal/lang"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// TestCreateActivityLogLanguages: the headings follow the workspace's
// language, activity_type takes the English and the old Japanese names in
// either, and what is written reads back as the same type.
func TestCreateActivityLogLanguages(t *testing.T) {
	tests := []struct {
		lang             lang.Lang
		typ              string
		heading, written string
		want             workspace.ActivityType
	}{
		{lang.English, "introspection", "## Activity type", "introspection", workspace.Introspection},
		{lang.English, "内省", "## Activity type", "introspection", workspace.Introspection},
		{lang.Japanese, "内省", "## 活動種別", "内省", workspace.Introspection},
		{lang.Japanese, "thinking", "## 活動種別", "思考", workspace.Thinking},
		{lang.Japanese, "テーマ開始", "## 活動種別", "テーマ開始", workspace.ThemeStart},
	}
	for _, tt := range tests {
		t.Run(string(tt.lang)+"/"+tt.typ, func(t *testing.T) {
			e := newEnv(t)
			e.tl.Lang = tt.lang
			res, err := call(e.tl, e.tl.CreateActivityLog, args(t, `{"activity_type":"`+tt.typ+`","activity_content":["a"],"theme_start_id":"20250101000000","theme_directory_part":"research"}`))
			if err != nil {
				t.Fatal(err)
			}
			text := e.read(res.Path)
			if !strings.Contains(text, tt.heading+"\n"+tt.written+"\n") {
				t.Errorf("CreateActivityLog(%s, %s) wrote\n%s\nwant %q then %q", tt.lang, tt.typ, text, tt.heading, tt.written)
			}
			if got := workspace.ParseActivityLog([]byte(text)).Type; got != tt.want || res.ActivityType != string(tt.want) {
				t.Errorf("read back type %q, reply %q, want %q", got, res.ActivityType, tt.want)
			}
		})
	}
}

// TestRepliesFollowLanguage runs a day's calls in each language: the
// replies' words follow it, and the structured content is the same.
func TestRepliesFollowLanguage(t *testing.T) {
	english := regexp.MustCompile(`\b(Time since|recorded|written|declared|Since latest|No deep work|holds no|Theme started|Theme ended|This cycle|activity log\(s\))\b`)
	structured := map[lang.Lang][]string{}
	for _, l := range []lang.Lang{lang.English, lang.Japanese} {
		e := newEnv(t)
		e.tl.Lang = l
		calls := []struct {
			name string
			run  func() (result, error)
		}{
			{"checkpoint", func() (result, error) { return call(e.tl, e.tl.Checkpoint, args(t, `{"current_activity":"reading"}`)) }},
			{"start_deep_work", func() (result, error) {
				return call(e.tl, e.tl.StartDeepWork, args(t, `{"mode":"flexible","activity_description":"a long read of the sources"}`))
			}},
			{"elapsed", func() (result, error) { return call(e.tl, e.tl.GetHeartbeatElapsedTime, args(t, `{}`)) }},
			{"create_activity_log", func() (result, error) { return call(e.tl, e.tl.CreateActivityLog, args(t, goodLog)) }},
			{"preview_next_theme", func() (result, error) { return call(e.tl, e.tl.PreviewNextTheme, args(t, `{}`)) }},
			{"check_and_process_item", func() (result, error) { return call(e.tl, e.tl.CheckAndProcessItem, args(t, `{}`)) }},
			{"check_theme_status", func() (result, error) {
				return call(e.tl, e.tl.CheckThemeStatus, args(t, `{"theme_start_id":"20250101000000","theme_directory_part":"research"}`))
			}},
			{"end_theme", func() (result, error) {
				return call(e.tl, e.tl.EndTheme, args(t, `{"theme_start_id":"20250101000000","theme_directory_part":"research","reason":"done","achievements":["notes"]}`))
			}},
		}
		for _, c := range calls {
			res, err := c.run()
			if err != nil {
				t.Fatalf("%s %s: %v", l, c.name, err)
			}
			text := res.Text(l)
			if l == lang.Japanese && (!japanese(text) || english.MatchString(text)) {
				t.Errorf("%s reply in Japanese:\n%s", c.name, text)
			}
			if l == lang.English && japanese(text) {
				t.Errorf("%s reply in English:\n%s", c.name, text)
			}
			b, _ := json.Marshal(res)
			var fields map[string]any
			_ = json.Unmarshal(b, &fields)
			keys := slices.Sorted(maps.Keys(fields))
			structured[l] = append(structured[l], c.name+" "+strings.Join(keys, ","))
		}
	}
	if !slices.Equal(structured[lang.English], structured[lang.Japanese]) {
		t.Errorf("structured content differs:\n%v\n%v", structured[lang.English], structured[lang.Japanese])
	}
}

// TestThemeRecordsLanguage: in a ja workspace the start and end records and
// the expert context are written with Japanese headings (as the old system
// wrote them), and check_theme_status still reads the theme's name.
func TestThemeRecordsLanguage(t *testing.T) {
	for _, tt := range []struct {
		l                   lang.Lang
		start, end, context []string
	}{
		{lang.English, []string{"# Theme start: 潮汐\n", "## Theme\n- name: 潮汐\n", "\n## Reason\n"}, []string{"# Theme end: ", "\n## Reason\n", "\n## Achievements\n"},
			[]string{"# Theme expert context: ", "\n## Expert\n", "\n## Perspective\n", "\n## Constraints\n", "\n## Expected outcome\n"}},
		{lang.Japanese, []string{"# テーマ開始: 潮汐\n", "## テーマ\n- 名前: 潮汐\n", "- theme_start_id: ", "- フォルダ: ", "\n## 理由\n"}, []string{"# テーマ終了: ", "- theme_start_id: ", "\n## 理由\n", "\n## 成果\n"},
			[]string{"# テーマ専門家コンテキスト: ", "\n## 専門家\n", "\n## 視点\n", "\n## 制約\n", "\n## 期待する成果\n"}},
	} {
		t.Run(string(tt.l), func(t *testing.T) {
			e := newEnv(t)
			e.tl.Lang = tt.l
			st, err := call(e.tl, e.tl.StartTheme, args(t, `{"theme_name":"潮汐","theme_directory_part":"tides","reason":"なぜ一日に二回か"}`))
			if err != nil {
				t.Fatal(err)
			}
			theme := `"theme_start_id":"` + st.ThemeStartID + `","theme_directory_part":"tides"`
			ctx, err := call(e.tl, e.tl.CreateThemeExpertContext, args(t, `{`+ctxArgs+`,`+theme+`}`))
			if err != nil {
				t.Fatal(err)
			}
			status, err := call(e.tl, e.tl.CheckThemeStatus, args(t, `{`+theme+`}`))
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(status.Text(tt.l), "潮汐") {
				t.Errorf("check_theme_status does not name the theme:\n%s", status.Text(tt.l))
			}
			end, err := call(e.tl, e.tl.EndTheme, args(t, `{`+theme+`,"reason":"答えが出た","achievements":["図"]}`))
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range []struct {
				rel  string
				want []string
			}{{st.StartRecord, tt.start}, {end.EndRecord, tt.end}, {ctx.File, tt.context}} {
				text := e.read(f.rel)
				for _, w := range f.want {
					if !strings.Contains(text, w) {
						t.Errorf("%s lacks %q:\n%s", f.rel, w, text)
					}
				}
			}
		})
	}
}
