package testutil

import (
	"strings"
	"testing"
)

func TestEnglishIn(t *testing.T) {
	for _, tc := range []struct {
		s    string
		want string // a substring of the problems, "" for none
	}{
		{"作業時間で21秒のあいだ内省していません（内省は30分ごとに必要です）。", ""},
		{"create_activity_log に activity_type 内省 を付けて記録してください。", "an activity_type value without 「」 内省"},
		{"create_activity_log の activity_type を「内省」にして記録してください。", ""},
		{"活動種別 回復 の活動ログ", "an activity_type value without 「」 回復"},
		{"期限まで inactivity・introspection・stale_id が一時停止", "a bare check name inactivity"},
		{"期限まで無活動（`inactivity`）・内省（`introspection`）・`stale_id` が一時停止", ""},
		{"feedbackbox/urgent.md (urgent)。", "an English word urgent"},
		{"notes.md（7 bytes）", "an English word bytes"},
		{"strict な深い作業（flexible でも可）を watchdog が見ます。ハートビートID", ""},
		{"`no_proof` のチェックと stats/checkpoints/20250601120000.txt、ID 20250601120000。", ""},
		{"processed.<名前> にリネームしてください。strict な深い作業。", ""},
		{"watchdog が問題を検知しました：no activity log or checkpoint for 16s", "English no activity log or checkpoint for"},
		{"21s（作業時間） のあいだ", "Go duration 21s"},
		{"残り 1m54s", "Go duration 1m54s"},
		{`記録しました："調査中"。`, `ASCII quotes "調査中"`},
		{"gemini.google.search (lock until 16:27:06)", "English lock until"},
		{"最初のパルス（1分 以内）を待って", "a duration set off by a space 1分 以"},
		{"証明がないまま 5分 と 10分", "a duration set off by a space"},
		{"期限15:49:16に達し、無活動（`inactivity`）の警告（5分）", ""},
		{"次：`inactivity` の警告は12:01:22（あと6秒）。", "a check name without its Japanese gloss `inactivity`"},
		{"（ハートビートID 20261127115903、種別 観測）", "an activity_type value without 「」 観測"},
		{"期限 15:49:16 に達し", "a clock time set off by a space"},
	} {
		got := strings.Join(EnglishIn(tc.s), "; ")
		if tc.want == "" && got != "" || !strings.Contains(got, tc.want) {
			t.Errorf("EnglishIn(%q) = %q, want %q", tc.s, got, tc.want)
		}
	}
}

func TestErrorFlaws(t *testing.T) {
	for _, tc := range []struct {
		s    string
		want string // a substring of the problems, "" for none
	}{
		{"theme_start_id: 空にはできません。直し方：theme_start_id を空でない文字列で渡してください。", ""},
		{"tool_id: 「.x」はツールIDではありません。直し方：ドットで始めないでください（例：gemini.google.search）。", ""},
		{"直し方：次を渡してください：サブテーマのときだけ：親テーマの14桁の開始ID。", "two colons in one sentence"},
		{"直し方：引数なしで呼んでください", "a 直し方 that is not an instruction"},
		{"直し方：テーマを始めたときの14桁のハートビートID。", "a 直し方 that is not an instruction"},
		{"直し方：省いてください（省略時は1）。", ""},
		{"直し方：省いてください。。", "a doubled 。"},
		{"cursor: 文字列ではありません（数値（5）が渡されました）。直し方：cursor を文字列で渡してください。前のページの next_cursor を渡してください。", "one instruction said twice"},
		{"(1) a: 空です。直し方：a を渡してください。 (2) b: 空です。直し方：b を渡してください。", ""},
	} {
		got := strings.Join(ErrorFlaws(tc.s), "; ")
		if (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
			t.Errorf("ErrorFlaws(%q) = %q, want %q", tc.s, got, tc.want)
		}
	}
}
