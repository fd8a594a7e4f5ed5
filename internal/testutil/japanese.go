package testutil

import (
	"regexp"
	"strings"
	"testing"
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
)

// EnglishIn lists what in a Japanese text s is not Japanese: runs of ASCII
// words (other than names, paths, IDs, backquoted check names and the
// words allowed), Go durations ("21s", "1m54s") and ASCII-quoted strings.
func EnglishIn(s string, allowed ...string) []string {
	var out []string
	for _, m := range goDuration.FindAllString(s, -1) {
		out = append(out, "Go duration "+m)
	}
	for _, m := range asciiQuote.FindAllString(s, -1) {
		out = append(out, "ASCII quotes "+m)
	}
	t := backquoted.ReplaceAllString(s, " ")
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
