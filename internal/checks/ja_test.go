package checks

import (
	"strings"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/lang"
	"github.com/ai-heart/ai-heart/internal/scan"
)

// Japanese notices spell durations and times the Japanese way, put the
// working-time phrase first, and carry no English: the lock of a tool
// restriction is said in Japanese too. English stays as it was.
func TestJapaneseNoticeWording(t *testing.T) {
	c := cfg
	c.Work.Scheduled, c.Work.Worked = true, 3*time.Hour+21*time.Second
	snap := scan.Snapshot{Restrictions: []scan.Marker{
		{Kind: scan.Lock, Tool: "gemini.google.search", Rel: "stats/lock/gemini.google.search", Since: now.Add(-time.Minute), Until: now.Add(time.Hour + 7*time.Second)},
		{Kind: scan.Cooldown, Tool: "web_search", Rel: "stats/cooldown/web_search", Since: now.Add(-time.Minute), Until: now.Add(time.Minute)},
	}}
	en, _ := Evaluate(now, snap, c, State{})
	c.Language = lang.Japanese
	ja, _ := Evaluate(now, snap, c, State{})
	for _, tc := range []struct {
		check, en, ja string
	}{
		{Introspection, "You have not reflected for 3h21s of working time (introspection is due every ", "内省しないまま、作業時間で3時間21秒たちました（内省は"},
		{ToolRestriction, "gemini.google.search (lock until 13:00:07), web_search (cooldown until 12:01:00)", "gemini.google.search（13:00:07までロック中）、web_search（12:01:00までクールダウン中）"},
	} {
		fe, _ := en.Finding(tc.check)
		fj, _ := ja.Finding(tc.check)
		if !strings.Contains(fe.Notice, tc.en) {
			t.Errorf("%s English notice %q lacks %q", tc.check, fe.Notice, tc.en)
		}
		if !strings.Contains(fj.Notice, tc.ja) {
			t.Errorf("%s Japanese notice %q lacks %q", tc.check, fj.Notice, tc.ja)
		}
		if fe.Message != fj.Message {
			t.Errorf("%s alert line differs by language: %q, %q", tc.check, fe.Message, fj.Message)
		}
	}
}
