package config

import (
	"fmt"
	"strings"
)

// problems collects every bad key of a config, so the operator fixes them
// all in one go instead of learning of them one start at a time (the tools
// report every bad parameter of a call the same way). A key is told once:
// its first problem.
type problems []error

// add records err, "key: reason" (nil is nothing), unless its key already
// has a problem.
func (p *problems) add(err error) {
	if err == nil {
		return
	}
	k := keyOf(err)
	for _, e := range *p {
		if keyOf(e) == k {
			return
		}
	}
	*p = append(*p, err)
}

// addf records the problem key: reason.
func (p *problems) addf(key, format string, args ...any) {
	p.add(fmt.Errorf("%s: %s", key, fmt.Sprintf(format, args...)))
}

func keyOf(err error) string {
	k, _, _ := strings.Cut(err.Error(), ": ")
	return k
}

// err is nil, the one problem as it is, or an *Error of them all.
func (p problems) err() error {
	switch len(p) {
	case 0:
		return nil
	case 1:
		return p[0]
	}
	return &Error{All: p}
}

// Error is a config with several bad keys: each one with its reason, one a
// line.
type Error struct{ All []error }

func (e *Error) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d keys need fixing:", len(e.All))
	for _, x := range e.All {
		b.WriteString("\n  " + x.Error())
	}
	return b.String()
}

// Unwrap lets errors.Is and errors.As see each problem.
func (e *Error) Unwrap() []error { return e.All }
