package testutil

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/ai-heart/ai-heart/internal/lang"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// CheckNames are the watchdog's check names (checks.Names: a test there
// keeps the two lists equal; checks' own tests use this package, so it
// cannot import checks). In Japanese a check is named glossed, as the docs
// do (無活動（`inactivity`）), or in backquotes (`stale_id`): never bare.
var CheckNames = []string{
	"inactivity", "introspection", "after_deep_work", "deep_work_expired", "invalid_declaration",
	"future_id", "stale_id", "log_loop", "theme_pattern", "feedback", "tool_restriction",
	"tool_loop", "waiting_for_you", "tool_refused", "channel_silent", "no_progress", "hooks_off",
}

// ParameterWords are the tools' parameter names that are one plain word
// (a test in internal/tools keeps the list equal to the schemas): names
// the agent passes back, so a Japanese text may hold them as they are.
var ParameterWords = []string{"achievements", "artifacts", "constraints", "cursor", "evaluation", "limit", "mode", "reason", "status"}

// asciiWordsJa are the other ASCII words a Japanese text may hold outside
// backquotes: product names the docs keep (watchdog, Windows), the
// deep-work modes the agent passes (strict, flexible), the one tool whose
// name is one word, and a unit. Words in capitals (ID, RFC, JSON) are
// names too.
var asciiWordsJa = map[string]bool{
	"watchdog": true, "Windows": true, "strict": true, "flexible": true, "checkpoint": true, "KiB": true,
}

// capitals is a word in capitals: an acronym or a name (ID, RFC, CON).
var capitals = regexp.MustCompile(`^[A-Z]+$`)

// nameToken is a run of characters a name is made of, or a plain word.
var nameToken = regexp.MustCompile(`[A-Za-z0-9_./<>:@\-]+`)

// bareActivity is an activity_type value (Japanese) given without 「」:
// 「activity_type 内省」 or 「種別 観測」 reads as a parameter and a loose
// word.
var bareActivity = regexp.MustCompile(`(?:activity_type|種別)[ 　]*(?:を|に|は|が)?[ 　]*[（(]?[ 　]*(` + strings.Join(workspace.JapaneseActivityTypes, "|") + `)`)

var (
	// backquoted is a check name or a value quoted as code (`inactivity`).
	backquoted = regexp.MustCompile("`[^`]*`")
	// nameLike is a token that names something rather than says it: a
	// path, a file, a tool or parameter (start_deep_work), an ID, a
	// placeholder (processed.<名前>), a URL.
	nameLike = regexp.MustCompile(`[A-Za-z0-9]*[_./<>:@\-\[][A-Za-z0-9_./<>:@\-\[\]]*|[A-Za-z0-9]*\d[A-Za-z0-9]*`)
	// englishRun is two or more plain ASCII words in a row: a phrase of
	// English, not a name.
	englishRun = regexp.MustCompile(`[A-Za-z]+(?:[ ,;]+[A-Za-z]+)+`)
	// noticeTag is a notice's level and check, as the docs show them.
	noticeTag = regexp.MustCompile(`\[(?:info|warning|error)\] [a-z_]+:`)
	// jaQuoted is a quotation in 「」.
	jaQuoted = regexp.MustCompile(`「[^」]*」`)
	// asciiWord is one plain ASCII word.
	asciiWord = regexp.MustCompile(`[A-Za-z]+`)
	// goDuration is Go's or humanize's English spelling of a duration.
	goDuration = regexp.MustCompile(`\b\d+(?:ms|[hms])(?:\d+[ms])*\b`)
	// asciiQuote is a quotation in ASCII double quotes (Go's %q).
	asciiQuote = regexp.MustCompile(`"[^"\n]*"`)
	// spacedDuration is a Japanese duration set off from the Japanese
	// around it by a space, as a %s between spaces leaves it: 「1分 以内」.
	spacedDuration = regexp.MustCompile(`[^\x00-\x7f] \d+(?:時間|分|秒)|\d+(?:時間|分|秒) [^\x00-\x7f\s]`)
	// spacedClock is a clock time set off by spaces (「期限 15:49:16 に」),
	// where the one local form is written close (「15:49:16まで」).
	spacedClock = regexp.MustCompile(`[^\x00-\x7f] \d\d:\d\d:\d\d|\d\d:\d\d:\d\d [^\x00-\x7f\s]`)
)

// EnglishIn lists what in a Japanese text s is not Japanese: runs of ASCII
// words (other than names, paths, IDs, backquoted check names and the
// words allowed), Go durations ("21s", "1m54s") and ASCII-quoted strings.
func EnglishIn(s string, allowed ...string) []string {
	var out []string
	t := backquoted.ReplaceAllString(s, " ")
	// A notice's tag ([warning] inactivity:) is the machine's, as the docs
	// show it.
	t = noticeTag.ReplaceAllString(t, " ")
	for _, m := range goDuration.FindAllString(t, -1) {
		out = append(out, "Go duration "+m)
	}
	for _, m := range asciiQuote.FindAllString(t, -1) {
		out = append(out, "ASCII quotes "+m)
	}
	for _, m := range spacedDuration.FindAllString(t, -1) {
		out = append(out, "a duration set off by a space "+m)
	}
	for _, m := range spacedClock.FindAllString(t, -1) {
		out = append(out, "a clock time set off by a space "+m)
	}
	for _, m := range bareActivity.FindAllStringSubmatch(t, -1) {
		out = append(out, "an activity_type value without 「」 "+m[1])
	}
	out = append(out, unglossed(s)...)
	for _, a := range allowed {
		t = strings.ReplaceAll(t, a, " ")
	}
	// What is quoted in 「」 is a value or the agent's own words.
	t = jaQuoted.ReplaceAllString(t, " ")
	for _, m := range nameToken.FindAllString(t, -1) {
		if slices.Contains(CheckNames, m) {
			out = append(out, "a bare check name "+m)
		}
	}
	t = nameLike.ReplaceAllString(t, " | ")
	runs := englishRun.FindAllString(t, -1)
	for _, m := range runs {
		out = append(out, "English "+m)
	}
	t = englishRun.ReplaceAllString(t, " | ")
	for _, m := range asciiWord.FindAllString(t, -1) {
		if !asciiWordsJa[m] && !capitals.MatchString(m) && !slices.Contains(ParameterWords, m) && !slices.Contains(CheckNames, m) {
			out = append(out, "an English word "+m)
		}
	}
	return out
}

// CheckJapanese fails t for each thing EnglishIn finds in s, naming what s
// is.
func CheckJapanese(t testing.TB, what, s string, allowed ...string) {
	t.Helper()
	for _, p := range EnglishIn(s, allowed...) {
		t.Errorf("%s: %s in %q", what, p, s)
	}
}

// CheckCatalogueJapanese renders every Japanese text of c with values like
// the real ones (a path for %s, a number for %d) and fails t on English
// inside any of them (see EnglishIn).
func CheckCatalogueJapanese(t testing.TB, c lang.Catalogue) {
	t.Helper()
	for en, ja := range c {
		args := realArgs(en)
		out := ja
		if len(args) > 0 {
			out = fmt.Sprintf(ja, args...)
		}
		for _, p := range EnglishIn(out) {
			t.Errorf("Japanese of %q: %s in %q", en, p, out)
		}
		for _, p := range StyleIn(out) {
			t.Errorf("Japanese of %q: %s in %q", en, p, out)
		}
	}
}

var (
	// sentenceColon is a colon between two whole sentences (「変わりません：
	// 最後の結果を…ください。」): a colon introduces a name, a list or a
	// quotation, not the next sentence.
	sentenceColon = regexp.MustCompile(`(?:ません|ました|です|ます|ください)：[^。「」]*(?:ません|ました|です|ます|ください)。`)
	// nestedParens is a parenthesis inside a parenthesis
	// (「（数値（1）が渡されました）」), hard to read in Japanese.
	nestedParens = regexp.MustCompile(`（[^（）]*（`)
)

// StyleIn lists what in a Japanese text s breaks the texts' style: the
// archaic copula 「であります」, a colon after a whole sentence, and nested
// parentheses.
func StyleIn(s string) []string {
	var out []string
	if strings.Contains(s, "であります") {
		out = append(out, "the archaic 「であります」")
	}
	for _, m := range sentenceColon.FindAllString(s, -1) {
		out = append(out, "a colon after a sentence "+m)
	}
	for _, m := range nestedParens.FindAllString(s, -1) {
		out = append(out, "nested parentheses "+m)
	}
	return out
}

// realArgs are values for the verbs of the English format en as the code
// passes them: a workspace path for strings, a count for numbers.
func realArgs(en string) []any {
	return verbArgs(en, "stats/checkpoints/20250601120000.txt", ':')
}

// glossed are the checks with a Japanese name, and the words that may stand
// before the backquoted name: 無活動（`inactivity`）, never `inactivity`
// alone.
var glossed = map[string][]string{
	"inactivity":    {"無活動（", "無活動チェック（"},
	"introspection": {"内省（", "内省チェック（"},
}

// unglossed lists the backquoted names of checks that have a Japanese name
// but stand without it.
func unglossed(s string) []string {
	var out []string
	for name, before := range glossed {
		q := "`" + name + "`"
		for i := 0; ; {
			j := strings.Index(s[i:], q)
			if j < 0 {
				break
			}
			at := i + j
			if !slices.ContainsFunc(before, func(b string) bool { return strings.HasSuffix(s[:at], b) }) {
				out = append(out, "a check name without its Japanese gloss "+q)
			}
			i = at + len(q)
		}
	}
	return out
}

var (
	// fixSentence is an error's 直し方 and what ends it.
	fixSentence = regexp.MustCompile(`直し方：([^。]*)(。?)`)
	// instruction is a 直し方 that asks for something: it ends in
	// 「ください」, perhaps with a parenthesis after it.
	instruction = regexp.MustCompile(`ください(?:（[^）]*）)?$`)
	// jaParen is an innermost parenthesis.
	jaParen = regexp.MustCompile(`（[^（）]*）`)
	// passTwice is a 直し方 whose next sentence asks to pass again: one
	// instruction said twice (「cursor を文字列で渡してください。前のページの
	// next_cursor を渡してください。」).
	passTwice = regexp.MustCompile(`直し方：[^。]*渡してください。[^。]*渡してください。`)
)

// ErrorFlaws lists what makes a Japanese error read badly: two colons in
// one sentence (「直し方：次を渡してください：…」), a 直し方 that is not
// one instruction ending in 「ください。」, and one that says it twice.
func ErrorFlaws(s string) []string {
	var out []string
	if strings.Contains(s, "。。") {
		out = append(out, "a doubled 。")
	}
	for _, sent := range strings.Split(s, "。") {
		// Quotations and parentheses (「例：…」, （例：…）) are asides.
		bare := jaQuoted.ReplaceAllString(sent, "")
		for p := ""; p != bare; {
			p, bare = bare, jaParen.ReplaceAllString(bare, "")
		}
		if strings.Count(bare, "：") > 1 {
			out = append(out, "two colons in one sentence: "+sent)
		}
	}
	for _, m := range passTwice.FindAllString(s, -1) {
		out = append(out, "one instruction said twice: "+m)
	}
	for _, m := range fixSentence.FindAllStringSubmatch(s, -1) {
		if m[2] != "。" || !instruction.MatchString(m[1]) {
			out = append(out, "a 直し方 that is not an instruction ending in 「ください。」: "+m[0])
		}
	}
	return out
}
