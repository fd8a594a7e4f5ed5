package testutil

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/ai-heart/ai-heart/internal/lang"
)

var (
	// backquoted is a check name or a value quoted as code (`inactivity`).
	backquoted = regexp.MustCompile("`[^`]*`")
	// nameLike is a token that names something rather than says it: a
	// path, a file, a tool or parameter (start_deep_work), an ID, a
	// placeholder (processed.<名前>), a URL.
	nameLike = regexp.MustCompile(`[A-Za-z0-9]*[_./<>:@\-][A-Za-z0-9_./<>:@\-]*|[A-Za-z0-9]*\d[A-Za-z0-9]*`)
	// englishRun is two or more plain ASCII words in a row: a phrase of
	// English, not a name.
	englishRun = regexp.MustCompile(`[A-Za-z]+(?:[ ,;]+[A-Za-z]+)+`)
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
	for _, a := range allowed {
		t = strings.ReplaceAll(t, a, " ")
	}
	t = nameLike.ReplaceAllString(t, " | ")
	for _, m := range englishRun.FindAllString(t, -1) {
		out = append(out, "English "+m)
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
	}
}

// realArgs are values for the verbs of the English format en as the code
// passes them: a workspace path for strings, a count for numbers.
func realArgs(en string) []any {
	return verbArgs(en, "stats/checkpoints/20250601120000.txt", ':')
}
