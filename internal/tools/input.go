package tools

import (
	"fmt"
	"math"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// A tool's input type is its parameters as a struct, the one place they are
// written. Each field is a parameter: its json tag names it (omitempty makes
// it optional, as mcp-go's schema says), its jsonschema tag describes it in
// English (the catalogue key of ja.go). mcp.SchemaFor makes the types and
// the required list of the schema from the struct.
//
// A call's arguments are decoded into the struct (decode), leniently where
// real clients are sloppy: a number sent as a string, one string for a
// list, null for a parameter left out. Then the input's validate method
// checks every field through a checker and reports every problem at once.
// The checker's rules also state each field's bounds and enums for the
// schema (describe), so a bound is written once, in validate.
type input interface {
	validate(c *checker)
}

// maxText bounds any one text value, so a runaway call cannot write a huge
// file; activity logs are meant to be read by people.
const maxText = 20000

// param is one parameter of a call: what was sent and what the rules say
// of it.
type param struct {
	name     string
	required bool
	desc     string // the English description, the field's jsonschema tag
	raw      any    // as sent; nil when left out or null
	ok       bool   // raw was decoded into the field
	// For the schema: the bounds and enums the rules state, and the
	// arguments of the description's format.
	schema   map[string]any
	descArgs []any
}

// given reports whether the parameter was sent with a non-null value (some
// clients send null for optional parameters they leave out).
func (p *param) given() bool { return p.raw != nil }

// checker runs an input's rules: it knows each field's parameter by the
// field's address, collects the problems, and in describe mode only records
// what the rules state for the schema.
type checker struct {
	t        *Tools
	byField  map[any]*param
	params   []*param // in field order
	bad      problems
	describe bool
}

// decode fills a new In from a call's arguments. A parameter In does not
// declare is refused at once, before anything else is looked at; a value
// of the wrong type leaves its field zero for validate to report.
func decode[In any](t *Tools, args map[string]any) (*In, *checker, error) {
	in := new(In)
	c := newChecker(t, in)
	var unknown []string
	for k := range args {
		if c.named(k) == nil {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		known := make([]string, len(c.params))
		for i, p := range c.params {
			known[i] = p.name
		}
		if len(known) == 0 {
			return nil, nil, badField(unknown[0], sayf("this tool takes no parameters"), sayf("call it with no arguments"))
		}
		return nil, nil, badField(unknown[0], sayf("unknown parameter"), sayf("use only these parameter names: %s", names(known)))
	}
	for field, p := range c.byField {
		p.raw = args[p.name]
		if p.given() {
			p.ok = set(reflect.ValueOf(field).Elem(), p.raw)
		}
	}
	return in, c, nil
}

// newChecker indexes the fields of *in by address.
func newChecker(t *Tools, in any) *checker {
	c := &checker{t: t, byField: map[any]*param{}}
	var walk func(v reflect.Value)
	walk = func(v reflect.Value) {
		for i := range v.NumField() {
			f := v.Type().Field(i)
			if f.Anonymous && f.Type.Kind() == reflect.Struct {
				walk(v.Field(i))
				continue
			}
			tag := f.Tag.Get("json")
			if tag == "" || !f.IsExported() {
				continue
			}
			name, opts, _ := strings.Cut(tag, ",")
			p := &param{name: name, required: opts != "omitempty", desc: f.Tag.Get("jsonschema"), schema: map[string]any{}}
			c.byField[v.Field(i).Addr().Interface()] = p
			c.params = append(c.params, p)
		}
	}
	walk(reflect.ValueOf(in).Elem())
	return c
}

// named is the parameter called name, or nil.
func (c *checker) named(name string) *param {
	for _, p := range c.params {
		if p.name == name {
			return p
		}
	}
	return nil
}

// set decodes raw into v leniently; false when raw does not fit v's type.
// Text is trimmed, and a list drops its empty items.
func set(v reflect.Value, raw any) bool {
	switch v.Interface().(type) {
	case string:
		s, ok := raw.(string)
		v.SetString(strings.TrimSpace(s))
		return ok
	case []string:
		items, ok := stringItems(raw)
		var out []string
		for _, s := range items {
			if s = strings.TrimSpace(s); s != "" {
				out = append(out, s)
			}
		}
		v.Set(reflect.ValueOf(out))
		return ok
	case int:
		n, ok := whole(raw)
		v.SetInt(int64(n))
		return ok
	case bool:
		b, ok := raw.(bool)
		v.SetBool(b)
		return ok
	}
	panic(fmt.Sprintf("tools: no decoding into %s", v.Type()))
}

// stringItems is a list of strings as sent: a JSON list whose items are all
// strings, or a single string, since models often send one.
func stringItems(raw any) ([]string, bool) {
	switch x := raw.(type) {
	case string:
		return []string{x}, true
	case []string:
		return x, true
	case []any:
		out := make([]string, 0, len(x))
		for _, item := range x {
			s, ok := item.(string)
			if !ok {
				return nil, false
			}
			out = append(out, s)
		}
		return out, true
	}
	return nil, false
}

// whole is a whole number as sent: a JSON number without a fraction, or a
// numeric string ("30"), since models sometimes quote numbers.
func whole(raw any) (int, bool) {
	switch v := raw.(type) {
	case float64:
		if v == math.Trunc(v) && math.Abs(v) <= 1e9 {
			return int(v), true
		}
	case int:
		return v, true
	case string:
		var i int
		s := strings.TrimSpace(v)
		if _, err := fmt.Sscanf(s, "%d", &i); err == nil && fmt.Sprint(i) == s {
			return i, true
		}
	}
	return 0, false
}

// of is the parameter of a field, by the field's address.
func (c *checker) of(field any) *param {
	p, ok := c.byField[field]
	if !ok {
		panic(fmt.Sprintf("tools: a rule names a %T that is not a field of the input", field))
	}
	return p
}

// report records a problem with a field's parameter.
func (c *checker) report(field any, problem, fix say) {
	c.bad.add(badField(c.of(field).name, problem, fix))
}

// says gives the field's description its format arguments.
func (c *checker) says(field any, args ...any) { c.of(field).descArgs = args }

// jsonKind names a decoded JSON value's type for error messages.
func jsonKind(v any) say {
	switch x := v.(type) {
	case nil:
		return sayf("null")
	case string:
		return sayf("the string %q", clip(x, 40))
	case float64:
		return sayf("the number %s", number(x))
	case bool:
		return sayf("the boolean %v", x)
	case []any:
		return sayf("a list")
	case map[string]any:
		return sayf("an object")
	}
	return sayf("%T", v)
}

// number writes a JSON number as the agent wrote it: whole, not in
// scientific notation (a heartbeat ID sent as a number is 20261207141155,
// not 2.0261207141155e+13); only a number too long to read keeps the
// exponent.
func number(x float64) string {
	if math.Abs(x) < 1e21 {
		return strconv.FormatFloat(x, 'f', -1, 64)
	}
	return strconv.FormatFloat(x, 'g', -1, 64)
}

// clip shortens s to at most n characters for quoting in messages.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n]) + "..."
}
