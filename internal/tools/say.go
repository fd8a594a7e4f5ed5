package tools

import (
	"strings"

	"github.com/ai-heart/ai-heart/internal/lang"
)

// say is words for the agent that are put into its language only when the
// reply is written: the code that finds a bad parameter does not know who
// will read about it. The format is English and is looked up in ja; an
// argument that is itself a say is rendered in the same language.
type say struct {
	format string
	args   []any
}

// sayf keeps a format and its arguments for later rendering.
func sayf(format string, args ...any) say { return say{format, args} }

// in renders s in language l.
func (s say) in(l lang.Lang) string {
	args := make([]any, len(s.args))
	for i, a := range s.args {
		switch x := a.(type) {
		case say:
			a = x.in(l)
		case names:
			a = strings.Join(x, ja.T(l, ", "))
		}
		args[i] = a
	}
	if len(args) == 0 {
		return ja.T(l, s.format)
	}
	return ja.F(l, s.format, args...)
}

// names is a list of names (parameters, values, IDs) that an argument of a
// say joins as its language lists them: "a, b" or 「a、b」.
type names []string

// String renders s in English.
func (s say) String() string { return s.in(lang.English) }

// empty reports whether s says nothing.
func (s say) empty() bool { return s.format == "" }
