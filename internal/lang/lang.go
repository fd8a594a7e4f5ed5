// Package lang is the language the agent reads: English (the default) or
// Japanese, chosen by the operator with the config key `language`.
//
// Texts are written in English in the code. A package that speaks to the
// agent keeps a Catalogue of their Japanese versions, keyed by the English
// text (a format string stays a format string), and looks them up with T.
// What machines read (alert lines, JSON field names, check names, metric
// names) never goes through a catalogue.
package lang

import "fmt"

// Lang is a language code as the config writes it.
type Lang string

// The languages.
const (
	English  Lang = "en"
	Japanese Lang = "ja"
)

// Default is the language when the config names none.
const Default = English

// Parse reads a language code; "" is the default.
func Parse(s string) (Lang, error) {
	switch Lang(s) {
	case "":
		return Default, nil
	case English, Japanese:
		return Lang(s), nil
	}
	return "", fmt.Errorf("%q is not one of en, ja", s)
}

// Catalogue maps English texts to their Japanese versions.
type Catalogue map[string]string

// T returns s in language l: s itself in English, else its entry in c, else
// s (a text without an entry is still better read in English than lost).
func (c Catalogue) T(l Lang, s string) string {
	if l != Japanese {
		return s
	}
	if j, ok := c[s]; ok {
		return j
	}
	return s
}

// Localized is an argument that spells itself in the reader's language: a
// duration (「21秒」, not "21s") or a time of day.
type Localized interface{ In(Lang) string }

// F is T followed by fmt.Sprintf; a Localized argument is written in l.
func (c Catalogue) F(l Lang, format string, args ...any) string {
	copied := false
	for i, a := range args {
		if x, ok := a.(Localized); ok {
			if !copied { // the caller's slice stays as it was
				args, copied = append([]any(nil), args...), true
			}
			args[i] = x.In(l)
		}
	}
	return fmt.Sprintf(c.T(l, format), args...)
}
