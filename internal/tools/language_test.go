package tools

import (
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
			res, err := e.tl.CreateActivityLog(args(t, `{"activity_type":"`+tt.typ+`","activity_content":["a"],"theme_start_id":"20250101000000","theme_directory_part":"research"}`))
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
