package aiheart_test

import (
	"os"
	"path/filepath"
	"regexp"
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
	"この停止":                           "起こすのをやめている状態 (the give-up is no 停止 beside the user's 一時停止: 「一時停止したときもこの停止は解けます」 read as a riddle)",
	"停止は解け":                          "起こすのをやめている状態は解けます",
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
	"記録もすることも":                       "トランスクリプトは残らず、エージェントのすることもありません (garbled)",
	"記録は残らず、することも":                   "トランスクリプトは残らず、エージェントのすることもありません (who has nothing to do?)",
	"していたことを止め":                      "していたことをやめ (one rendering, as the inactivity error says it)",
	"；":                              "。 between clauses, or 、 (a full-width semicolon is not Japanese punctuation)",
	"至急":                             "緊急 (one word for urgent, as the feedback notices say it)",
	"予定による起動":                        "定期の起動 (one word for a scheduled wakeup)",
	"スケジュール":                         "定期 (one word for a scheduled wakeup)",
	"活動時間まで待機":                       "活動時間まで保留 (待機 is the agent's waiting; a wakeup is held)",
	"側で待機":                           "…の制限で保留中 (待機 is the agent's waiting; a wakeup is held)",
	"起動は待機":                          "起動は保留中 (待機 is the agent's waiting; a wakeup is held)",
	"はまだない":                          "はまだありません (です/ます, as everywhere else)",
	"前回の内省から":                        "内省しないまま (there may have been none)",
	"activity_type は「":               "活動種別「テーマ終了」の活動ログ (one form for a log of a type)",
	"試行の後に断念":                        "回復を試みても立ち直らなかったため (translationese)",
	"終了させられ":                         "打ち切られました (no double passive; the demo's and GEMINI.md's word)",
	"に付けさせて":                         "…に任せてください (as the notice says)",
	"を付けて `start_theme`":             "そのファイル名を `themebox_file` に渡して `start_theme` を呼んでください",
	"（`themebox_file` を付けて）":         "`themebox_file` にその名前を渡して `start_theme` を呼ぶと",
	"からあなたを起動する":                     "あなたを起こす (起動 is the wakeup, not the verb for waking the agent)",
	"のものではないので":                      "…はあなたの無活動には数えないので (literal rendering)",
	"そうしたら：":                         "届いたら、次のようにしてください。 (colloquial)",
	"内省を予定し、":                        "次の1〜2サイクルのうちに、…活動ログを書いてください (two verbs for one act)",
	"回のパルスで続けて":                      "回のパルスにわたって書き換えられ続けています",
	"ハートビートID %[3]s より":              "ハートビートID %[3]s の時刻より (an ID is not a time)",
	"断念は":                            "起こすのをやめていた状態は…解けました (断念 is an act, not a state that ends)",
	"断念している":                         "watchdog が起こすのをやめている (断念 is an act, not a state)",
	"watchdog が起動し":                  "watchdog が動き始めて (起動 is the wakeup, not the watchdog's start)",
	"watchdog は起動（":                  "watchdog は動き始めて (起動 is the wakeup, not the watchdog's start)",
	"自身の起動":                          "watchdog 自身が動き始める (起動 is the wakeup, not the watchdog's start)",
	"再起動":                            "再始動 (起動 is the wakeup, not the watchdog's start)",
	"起動しているなら":                       "動いているなら (起動 is the wakeup, not the watchdog running)",
	"watchdog を起動し":                  "watchdog を動かす (起動 is the wakeup, not the watchdog's start)",
	"停止（回復を断念）":                      "なし（回復を断念） (the give-up is not a stop; 停止 is the operator's)",
	"起動しません":                         "エージェントを起こしません (起動 is the noun for a wakeup; as a verb with no subject it reads as something starting up)",
	"動き始めて（":                         "watchdog は%sに動き始めてから (the time goes with the verb, not between it and から)",
	"とき（%":                           "watchdog の開始（%s）、…へのユーザーの回答（%s） (an origin with its time is a short noun, as the others)",
	"上の回復の通知":                        "上で求められている… (回復通知 is RECOVERY's own paragraph; what asks above may be the give-up's line)",
}

// pageTexts are the status page's scripts: their Japanese is what a
// Japanese operator reads on the card, and says a wakeup, a wait and
// urgency in the agent's words.
func pageTexts(t *testing.T) []agentText {
	t.Helper()
	files, err := filepath.Glob("internal/web/static/*.js")
	if err != nil || len(files) == 0 {
		t.Fatalf("no page scripts: %v", err)
	}
	var out []agentText
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, agentText{f, string(b)})
	}
	return out
}

// TestJapaneseTextsAvoidMisleadingPhrases: no Japanese text the agent reads
// (docs, tool definitions, server instructions, reply and notice
// templates), nor the demo's narration or the status page, keeps a phrase
// the review flagged.
func TestJapaneseTextsAvoidMisleadingPhrases(t *testing.T) {
	for _, at := range append(agentTexts(t), pageTexts(t)...) {
		for bad, good := range jaAvoid {
			if strings.Contains(at.text, bad) {
				t.Errorf("%s says %q: write %s", at.where, bad, good)
			}
		}
	}
}

// watchdogStartsUp is a sentence whose subject is the watchdog and whose
// verb is 起動する, with words between (「watchdog が接頭辞を外してすぐに
// 起動する」): it reads as the watchdog starting up, where 起動 is the
// wakeup; the watchdog wakes the agent (あなたを起こす).
var watchdogStartsUp = regexp.MustCompile(`watchdog ?[がは][^。\n]*?起動(?:する|し|させ)`)

// TestJapaneseWatchdogDoesNotStartUp: no Japanese text the agent reads
// makes the watchdog the subject of 起動する, near or far.
func TestJapaneseWatchdogDoesNotStartUp(t *testing.T) {
	for _, s := range []string{"watchdog が接頭辞を外してすぐに起動する", "watchdog が起動しました"} {
		if !watchdogStartsUp.MatchString(s) {
			t.Fatalf("%q is not caught", s)
		}
	}
	if watchdogStartsUp.MatchString("watchdog は次の起動（12:00:00）を待ちます。") {
		t.Fatal("起動 as a noun, the wakeup, is caught")
	}
	for _, at := range agentTexts(t) {
		for _, m := range watchdogStartsUp.FindAllString(at.text, -1) {
			t.Errorf("%s: the watchdog is the subject of 起動する: %q (起動 is the wakeup: write あなたを起こす, or 動き始める for its start)", at.where, m)
		}
	}
}

// lookBackTense is a look back (「…たっていました。」) whose next sentence
// slips into the present (「…を超えています。」): the stretch is over, the log
// that ended it has been written.
var lookBackTense = regexp.MustCompile(`たっていました。[^。]*ています。`)

// TestJapaneseLookBackStaysPast: a note on what came before a log says it
// in the past throughout.
func TestJapaneseLookBackStaysPast(t *testing.T) {
	if !lookBackTense.MatchString("このログの前に、活動の証明がないまま%sたっていました。無活動のエラーが出る時間（%s）を超えています。") {
		t.Fatal("the tense slip the review found is not caught")
	}
	for _, at := range agentTexts(t) {
		for _, m := range lookBackTense.FindAllString(at.text, -1) {
			t.Errorf("%s: a look back slips into the present: %q", at.where, m)
		}
	}
}

var (
	// doubledPhrase is a word and its particle, the start of a phrase an
	// edit can leave twice (「回復を回復を」); Go's regexp has no
	// backreference, so the test compares neighbouring matches.
	doubledPhrase = regexp.MustCompile(`\p{Han}{2,}[をがにはの]`)
	// asciiGap is an ASCII space where Japanese has none: after 。 or 、
	// before more Japanese, or between two Japanese words (「振り返る 活動」,
	// 「一時停止 を要求しました」).
	asciiGap = regexp.MustCompile(`[。、] [^\x00-\x7f]|[\p{Han}\p{Hiragana}\p{Katakana}ー] [\p{Han}\p{Hiragana}\p{Katakana}]`)
	// particleFirst is a page string that begins with a particle: the
	// script glues it to a word, and with a space in Japanese.
	particleFirst = regexp.MustCompile(`:\s*"[をがにはで]`)
)

// TestJapaneseTextsHaveNoEditScars: no Japanese text the agent or the
// operator reads keeps what an edit leaves behind: a phrase said twice
// back to back, or an ASCII space inside Japanese.
func TestJapaneseTextsHaveNoEditScars(t *testing.T) {
	for _, at := range append(agentTexts(t), pageTexts(t)...) {
		ms := doubledPhrase.FindAllStringIndex(at.text, -1)
		for i := 1; i < len(ms); i++ {
			if ms[i][0] == ms[i-1][1] && at.text[ms[i][0]:ms[i][1]] == at.text[ms[i-1][0]:ms[i-1][1]] {
				t.Errorf("%s says %q twice in a row", at.where, at.text[ms[i][0]:ms[i][1]])
			}
		}
		for _, m := range asciiGap.FindAllString(at.text, -1) {
			t.Errorf("%s: an ASCII space inside Japanese: %q", at.where, m)
		}
	}
	for _, at := range pageTexts(t) {
		for _, m := range particleFirst.FindAllString(at.text, -1) {
			t.Errorf("%s: a Japanese string that begins with a particle (%q) is glued to a word by the script: key the whole sentence", at.where, m)
		}
	}
}

// nestedParens is a parenthesis inside a parenthesis on one line
// (「（チェックポイントが応えた無活動（`inactivity`）の通知は除く）」): the
// native review found it hard to read; a gloss inside an aside is said as
// a sentence of its own.
var nestedParens = regexp.MustCompile(`（[^（）\n]*(?:（[^（）\n]*）[^（）\n]*)+）`)

// TestJapaneseTextsNestNoParentheses: no Japanese text the agent reads
// nests parentheses or keeps the archaic 「であります」.
func TestJapaneseTextsNestNoParentheses(t *testing.T) {
	for _, at := range agentTexts(t) {
		for _, m := range nestedParens.FindAllString(at.text, -1) {
			t.Errorf("%s nests parentheses: %s", at.where, m)
		}
		if strings.Contains(at.text, "であります") {
			t.Errorf("%s says 「であります」: write です", at.where)
		}
	}
}
