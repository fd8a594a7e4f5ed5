package aiheart_test

import (
	"strings"
	"testing"
)

// jaAvoid are Japanese phrasings a native review found misleading or
// translated-sounding, each with what to write instead; one
// rendering per term, as the shared ja-terms list says.
var jaAvoid = map[string]string{
	"を超えてない":                         "活動の証明がないまま5分を超えると（reads as \"if it has not exceeded\"）",
	"超えて（error）ない":                   "活動の証明がないまま…を超えた",
	"ことはありません。ツールが現在のID":             "…しないでください。 (the ID rule is a rule, not a fact)",
	"入力したり使い回したりすることはありません":          "…しないでください。",
	"まで止まります":                        "待機します (作業中／待機中, never 止まる)",
	"決めた分数":                          "予定時間",
	"名前変更":                           "リネーム",
	"眺め続ける時計":                        "時計代わりに何度も呼ぶものではありません",
	"時間についての問い":                      "経過時間の確認",
	"受け箱とツールについての通知":                 "themebox・feedbackbox とツールの通知",
	"その起動自身の文":                       "起動の種類ごとの本文",
	"届くのはここです":                       "サイクル途中の警告はこれらの返信で届きます",
	"働いている心と行き詰まった心":                 "考えを進めているのか行き詰まっているのか",
	"正直に、軽く示して":                      "手間をかけずに正直に示して",
	"止まってください":                       "その操作をやめてください",
	"ファイルの保存とログを書く余裕":                "ファイルを保存しログを書く余裕",
	"一つの決断につき一度だけ":                   "テーマの開始・終了はハートビートごとに一度までにしてください",
	"ツールが代わりに使います":                   "ツールが自動で使うので、入力は不要です",
	"直すべきパラメータ":                      "パラメータに…件の誤りがあります",
	"1行で%d〜":                         "1行、%d〜",
	"知らせにすぎ":                         "注意喚起にすぎません",
	"メッセージは人から":                      "ユーザー (one term)",
	"直前の `checkpoint` の返信にあったIDを使って": "the tools name files; you never type an ID",
	"記録もすることも":                       "記録は残らず、することもありません (garbled)",
	"していたことを止め":                      "していたことをやめ (one rendering, as the inactivity error says it)",
}

// TestJapaneseTextsAvoidMisleadingPhrases: no Japanese text the agent reads
// (docs, tool definitions, server instructions, reply and notice
// templates) keeps a phrase the review flagged.
func TestJapaneseTextsAvoidMisleadingPhrases(t *testing.T) {
	for _, at := range agentTexts(t) {
		for bad, good := range jaAvoid {
			if strings.Contains(at.text, bad) {
				t.Errorf("%s says %q: write %s", at.where, bad, good)
			}
		}
	}
}
