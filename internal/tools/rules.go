package tools

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/ai-heart/ai-heart/internal/workspace"
)

// The rules a validate method applies to its fields. Each reports at most
// one problem per parameter, in words naming it, with a fix built from
// hint; each returns whether the field holds a usable value. In describe
// mode a rule only states its bounds for the schema and returns false.

// text checks a string field: present when required, a string, not empty
// when required, at most maxText characters.
func (c *checker) text(f *string, hint say) bool { return c.textAs(f, c.of(f).required, hint) }

// textAs is text with required said by the caller: the parent pair is
// optional, but each of the two is required once the other is given.
func (c *checker) textAs(f *string, required bool, hint say) bool {
	return c.textFix(f, required, hint, "pass %s as a string: %s", "pass %s as a non-empty string: %s")
}

// textFix is textAs with the two fixes given: a hint that names the value
// (a noun, not an instruction) goes inside the one instruction, "pass X as
// a string holding Y", never after it as a second one.
func (c *checker) textFix(f *string, required bool, hint say, asString, nonEmpty string) bool {
	p := c.of(f)
	if c.describe {
		return false
	}
	switch {
	case !p.given():
		if required {
			c.report(f, sayf("required but missing"), sayf(asString, p.name, hint))
		}
		return false
	case !p.ok:
		c.report(f, sayf("must be a string, got %s", jsonKind(p.raw)), sayf(asString, p.name, hint))
		return false
	case required && *f == "":
		c.report(f, sayf("must not be empty"), sayf(nonEmpty, p.name, hint))
		return false
	}
	if n := utf8.RuneCountInString(*f); n > maxText {
		c.report(f, sayf("is %d characters long, more than %d", n, maxText), sayf("shorten it; put long material in a file under artifacts/ and list its path instead"))
		*f = ""
		return false
	}
	return *f != ""
}

// oneLine is text on one line: newlines and control characters become
// spaces (workspace.OneLine), and its length in characters is min to max.
func (c *checker) oneLine(f *string, min, max int, hint say) bool {
	p := c.of(f)
	p.schema["minLength"], p.schema["maxLength"] = min, max
	if !c.text(f, hint) {
		return false
	}
	*f = workspace.OneLine(*f)
	if n := utf8.RuneCountInString(*f); n < min || n > max {
		// The range is the fix's to give; said in the problem too, it was
		// said twice.
		problem := sayf("is %d characters long: too long", n)
		if n < min {
			problem = sayf("is %d characters long: too short", n)
		}
		c.report(f, problem, hint)
		return false
	}
	return true
}

// list checks a list of strings: present with a non-empty item when
// required, every item a string, at most maxText characters in all.
func (c *checker) list(f *[]string, hint say) bool {
	p := c.of(f)
	if p.required {
		p.schema["minItems"] = 1
	}
	if c.describe {
		return false
	}
	switch {
	case !p.given():
		if p.required {
			c.report(f, sayf("required but missing"), sayf("pass %s as a list of strings with at least one item: %s", p.name, hint))
		}
		return false
	case !p.ok:
		items, isList := p.raw.([]any)
		if !isList {
			c.report(f, sayf("must be a list of strings, got %s", jsonKind(p.raw)), sayf("pass %s as a list like [\"first\", \"second\"]: %s", p.name, hint))
			return false
		}
		for i, item := range items {
			if _, ok := item.(string); !ok {
				c.bad.add(badField(fmt.Sprintf("%s[%d]", p.name, i), sayf("must be a string, got %s", jsonKind(item)), sayf("make every item of %s a string", p.name)))
				return false
			}
		}
	}
	total := 0
	for _, s := range *f {
		total += utf8.RuneCountInString(s)
	}
	if total > maxText {
		c.report(f, sayf("holds %d characters, more than %d", total, maxText), sayf("shorten it; put long material in a file under artifacts/ and list its path instead"))
		return false
	}
	if p.required && len(*f) == 0 {
		c.report(f, sayf("has no non-empty item"), sayf("pass at least one non-empty string: %s", hint))
		return false
	}
	return len(*f) > 0
}

// whole checks a whole-number field whose schema allows min to max;
// given says it was sent, inRange that its value lies there. The caller
// says what a value out of range means.
func (c *checker) whole(f *int, min, max int, hint say) (given, inRange bool) {
	p := c.of(f)
	p.schema["minimum"], p.schema["maximum"] = min, max
	if c.describe || !p.given() {
		return false, false
	}
	if !p.ok {
		if v, isNum := p.raw.(float64); isNum {
			c.report(f, sayf("must be a whole number, got %s", number(v)), hint)
		} else {
			c.report(f, sayf("must be a whole number, got %s", jsonKind(p.raw)), hint)
		}
		return true, false
	}
	return true, *f >= min && *f <= max
}

// boolean checks a true-or-false field; given says it was sent as one.
func (c *checker) boolean(f *bool, fix say) (given bool) {
	p := c.of(f)
	if c.describe || !p.given() {
		return false
	}
	if !p.ok {
		c.report(f, sayf("must be true or false"), fix)
		return false
	}
	return true
}

// describeAs gives field's schema the description desc (English, a
// catalogue key) instead of its tag's: for a parameter said in full where
// it matters and short elsewhere.
func (c *checker) describeAs(f *string, desc string) {
	if c.describe {
		c.of(f).desc = desc
	}
}

// enum states a string field's allowed values for the schema and checks
// it as text; the caller matches the value, as leniently as it means to.
func (c *checker) enum(f *string, values []string, hint say) bool {
	c.of(f).schema["enum"] = values
	return c.text(f, hint)
}

// pattern states a string field's pattern for the schema and checks it as
// text; the caller matches the value.
func (c *checker) pattern(f *string, re *regexp.Regexp, hint say) bool {
	c.of(f).schema["pattern"] = re.String()
	return c.text(f, hint)
}

// oneOf reports whether v is one of values.
func oneOf(v string, values []string) bool { return slices.Contains(values, v) }

// idRe is the pattern of a heartbeat ID in the schema; workspace.ParseID
// checks it.
var idRe = regexp.MustCompile(`^[0-9]{14}$`)

// id checks a heartbeat-ID field, required, and returns the ID.
func (c *checker) id(f *string, hint say) (workspace.ID, bool) {
	c.of(f).schema["pattern"] = idRe.String()
	if !c.textFix(f, true, hint, holdingString, holdingNonEmpty) {
		return "", false
	}
	id, err := workspace.ParseID(*f)
	if err != nil {
		c.report(f, sayf("%q is not a heartbeat ID (14 digits YYYYMMDDHHMMSS)", clip(*f, 40)), sayf("pass %s", hint))
		return "", false
	}
	return workspace.ID(id), true
}

// The fixes of a field whose hint names its value (the theme pair).
const (
	holdingString   = "pass %s as a string holding %s"
	holdingNonEmpty = "pass %s as a non-empty string holding %s"
)

// part checks a directory-part field (required) and cleans it.
func (c *checker) part(f *string, hint say) bool {
	c.of(f).schema["maxLength"] = workspace.MaxPartLen
	if !c.textFix(f, true, hint, holdingString, holdingNonEmpty) {
		return false
	}
	p, err := workspace.CheckPart(*f)
	if err != nil {
		c.report(f, partProblem(err), sayf("use one folder name without / \\ : * ? \" < > |, control characters, a leading dot or ..; %s", hint))
		return false
	}
	*f = p
	return true
}

// problems of the fields so far: nil, the one, or all of them.
func (c *checker) err() error { return c.bad.err() }

// trimmedEmpty reports whether a field was sent as a string that is empty
// once trimmed: the parent pair counts that as left out.
func (c *checker) trimmedEmpty(f *string) bool {
	p := c.of(f)
	s, ok := p.raw.(string)
	return ok && strings.TrimSpace(s) == ""
}
