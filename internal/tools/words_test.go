package tools

import (
	"strings"
	"testing"

	"github.com/ai-heart/ai-heart/internal/lang"
	"github.com/ai-heart/ai-heart/internal/testutil"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// Every reason workspace.CheckPart gives is said in Japanese in a ja
// workspace, and word for word as workspace says it in English.
func TestPartProblemLanguage(t *testing.T) {
	for _, in := range []string{"", "\xff", strings.Repeat("a", workspace.MaxPartLen+1), "a/b", "a..b", ".a", "a.", "a:b", "a\x01b", "a\u202eb", "CON"} {
		_, err := workspace.CheckPart(in)
		if err == nil {
			t.Fatalf("CheckPart(%q) accepted it", in)
		}
		if got := partProblem(err).in(lang.English); got != err.Error() {
			t.Errorf("English %q, want workspace's %q", got, err.Error())
		}
		ja := partProblem(err).in(lang.Japanese)
		if !japanese(ja) {
			t.Errorf("CheckPart(%q): %q is not Japanese (add the reason to partReasons and the catalogue)", in, ja)
		}
		testutil.CheckJapanese(t, "CheckPart reason", ja)
	}
}

// get_heartbeat_elapsed_time names the crossed thresholds in Japanese, with
// Japanese durations; the deadline is a local clock time.
func TestElapsedTextJapanese(t *testing.T) {
	left, zero := int64(114), int64(0)
	r := &ElapsedResult{HeartbeatID: "20250101120000", Work: "working",
		DeepWork: &DeepWorkStatus{Mode: "strict", Activity: "潮汐表の確認", File: "stats/deep_work/20250101120000.txt", ElapsedSeconds: 3600, RemainingSeconds: &left, Deadline: "2025-01-01T13:01:54+09:00"},
		Thresholds: []ThresholdStatus{
			{Check: "inactivity", Level: "warning", ThresholdSeconds: 8, Crossed: true, RemainingSeconds: &zero},
			{Check: "inactivity", Level: "error", ThresholdSeconds: 16, Crossed: true, RemainingSeconds: &zero},
			{Check: "introspection", Level: "error", ThresholdSeconds: 1800},
		}}
	ja := r.Text(lang.Japanese)
	for _, w := range []string{"「潮汐表の確認」", "経過1時間", "期限 13:01:54 まで残り1分54秒", "`inactivity` の警告（8秒）、`inactivity` のエラー（16秒）。"} {
		if !strings.Contains(ja, w) {
			t.Errorf("Japanese reply lacks %q:\n%s", w, ja)
		}
	}
	testutil.CheckJapanese(t, "elapsed reply", ja)
	en := r.Text(lang.English)
	for _, w := range []string{`"潮汐表の確認"`, "for 1h", "1m54s left until 2025-01-01T13:01:54+09:00", "inactivity warning (8s), inactivity error (16s)."} {
		if !strings.Contains(en, w) {
			t.Errorf("English reply lacks %q:\n%s", w, en)
		}
	}
}

// The last item's reply says none are left instead of counting zero.
func TestInboxNoneLeftJapanese(t *testing.T) {
	r := &InboxItemResult{Found: true, File: "feedbackbox/a.md", Content: "x", Remaining: 0, Next: "次へ。"}
	if got := r.Text(lang.Japanese); !strings.Contains(got, "未処理の項目はもうありません。次へ。") || strings.Contains(got, "0件") {
		t.Errorf("Japanese: %q", got)
	}
	r.Remaining = 2
	if got := r.Text(lang.Japanese); !strings.Contains(got, "ほかに2件の未処理の項目があります。") {
		t.Errorf("Japanese: %q", got)
	}
	if got := r.Text(lang.English); !strings.Contains(got, "2 more unprocessed item(s) wait there.") {
		t.Errorf("English: %q", got)
	}
}
