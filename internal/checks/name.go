package checks

import "github.com/ai-heart/ai-heart/internal/lang"

// Name is a check's name as the agent reads it in a sentence, the one way
// the agent docs write it: `inactivity` in English; in Japanese glossed
// where the docs gloss it (無活動（`inactivity`）), else backquoted
// (`stale_id`). A bare name inside Japanese reads as stray English.
type Name string

// glossJa are the checks the Japanese docs name in Japanese.
var glossJa = map[string]string{
	Inactivity:    "無活動",
	Introspection: "内省",
}

// In renders the name in language l.
func (n Name) In(l lang.Lang) string {
	if g, ok := glossJa[string(n)]; ok && l == lang.Japanese {
		return g + "（`" + string(n) + "`）"
	}
	return "`" + string(n) + "`"
}

// GlossJa is the Japanese word for a check, "" for one the docs leave in
// backquotes.
func GlossJa(check string) string { return glossJa[check] }
