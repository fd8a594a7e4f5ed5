package tools

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/ai-heart/ai-heart/internal/workspace"
)

// Args are a call's arguments as decoded JSON. The accessors check types
// themselves so a wrong value is reported by its parameter name in words an
// agent can act on, instead of a Go decoding error.
type Args map[string]any

// maxText bounds any one text value, so a runaway call cannot write a huge
// file; activity logs are meant to be read by people.
const maxText = 20000

// checkKnown refuses parameters the tool does not have; a misspelt name is
// otherwise silently ignored and the agent never learns why its value is lost.
func (a Args) checkKnown(known ...string) error {
	var unknown []string
	for k := range a {
		found := false
		for _, n := range known {
			if k == n {
				found = true
				break
			}
		}
		if !found {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) == 0 {
		return nil
	}
	sort.Strings(unknown)
	if len(known) == 0 {
		return badField(unknown[0], sayf("this tool takes no parameters"), sayf("call it with no arguments"))
	}
	return badField(unknown[0], sayf("unknown parameter"), sayf("use only these parameter names: %s", names(known)))
}

// present reports whether name was given with a non-null value (some clients
// send null for optional parameters they leave out).
func (a Args) present(name string) bool {
	v, ok := a[name]
	return ok && v != nil
}

// text returns a string parameter, trimmed. A missing required one is an
// error naming it; so is a value longer than maxText characters.
func (a Args) text(name string, required bool, hint say) (string, error) {
	if !a.present(name) {
		if required {
			return "", badField(name, sayf("required but missing"), sayf("pass %s as a string: %s", name, hint))
		}
		return "", nil
	}
	s, ok := a[name].(string)
	if !ok {
		return "", badField(name, sayf("must be a string, got %s", jsonKind(a[name])), sayf("pass %s as a string: %s", name, hint))
	}
	s = strings.TrimSpace(s)
	if required && s == "" {
		return "", badField(name, sayf("must not be empty"), sayf("pass %s as a non-empty string: %s", name, hint))
	}
	if n := utf8.RuneCountInString(s); n > maxText {
		return "", badField(name, sayf("is %d characters long, more than %d", n, maxText), sayf("shorten it; put long material in a file under artifacts/ and list its path instead"))
	}
	return s, nil
}

// oneLine returns a one-line text parameter: newlines and control characters
// become spaces (workspace.OneLine) and its length in characters must be in
// [min, max].
func (a Args) oneLine(name string, required bool, min, max int, hint say) (string, error) {
	s, err := a.text(name, required, hint)
	if err != nil || (s == "" && !required) {
		return s, err
	}
	s = workspace.OneLine(s)
	n := utf8.RuneCountInString(s)
	if n < min || n > max {
		return "", badField(name, sayf("is %d characters long; it must be %d to %d characters on one line", n, min, max), hint)
	}
	return s, nil
}

// list returns a list-of-strings parameter with empty items dropped. A single
// string is accepted as a one-item list, since models often send one.
func (a Args) list(name string, required bool, hint say) ([]string, error) {
	if !a.present(name) {
		if required {
			return nil, badField(name, sayf("required but missing"), sayf("pass %s as a list of strings with at least one item: %s", name, hint))
		}
		return nil, nil
	}
	var raw []any
	switch v := a[name].(type) {
	case []any:
		raw = v
	case []string:
		for _, s := range v {
			raw = append(raw, s)
		}
	case string:
		raw = []any{v}
	default:
		return nil, badField(name, sayf("must be a list of strings, got %s", jsonKind(v)), sayf("pass %s as a list like [\"first\", \"second\"]: %s", name, hint))
	}
	var out []string
	total := 0
	for i, item := range raw {
		s, ok := item.(string)
		if !ok {
			return nil, badField(fmt.Sprintf("%s[%d]", name, i), sayf("must be a string, got %s", jsonKind(item)), sayf("make every item of %s a string", name))
		}
		s = strings.TrimSpace(s)
		if s == "" {
			continue
		}
		total += utf8.RuneCountInString(s)
		out = append(out, s)
	}
	if total > maxText {
		return nil, badField(name, sayf("holds %d characters, more than %d", total, maxText), sayf("shorten it; put long material in a file under artifacts/ and list its path instead"))
	}
	if required && len(out) == 0 {
		return nil, badField(name, sayf("has no non-empty item"), sayf("pass at least one non-empty string: %s", hint))
	}
	return out, nil
}

// integer returns a whole-number parameter; ok is false when it is absent.
// Numeric strings ("30") are accepted, since models sometimes quote numbers.
func (a Args) integer(name string, hint say) (n int, ok bool, err error) {
	if !a.present(name) {
		return 0, false, nil
	}
	switch v := a[name].(type) {
	case float64:
		if v != math.Trunc(v) || math.Abs(v) > 1e9 {
			return 0, true, badField(name, sayf("must be a whole number, got %v", v), hint)
		}
		return int(v), true, nil
	case int:
		return v, true, nil
	case string:
		var i int
		if _, err := fmt.Sscanf(strings.TrimSpace(v), "%d", &i); err == nil && fmt.Sprint(i) == strings.TrimSpace(v) {
			return i, true, nil
		}
	}
	return 0, true, badField(name, sayf("must be a whole number, got %s", jsonKind(a[name])), hint)
}

// jsonKind names a decoded JSON value's type for error messages.
func jsonKind(v any) say {
	switch x := v.(type) {
	case nil:
		return sayf("null")
	case string:
		return sayf("the string %q", clip(x, 40))
	case float64, int:
		return sayf("the number %v", x)
	case bool:
		return sayf("the boolean %v", x)
	case []any:
		return sayf("a list")
	case map[string]any:
		return sayf("an object")
	}
	return sayf("%T", v)
}

// clip shortens s to at most n characters for quoting in messages.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n]) + "..."
}
