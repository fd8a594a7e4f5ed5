package testutil

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/ai-heart/ai-heart/internal/lang"
)

// verbRe finds the fmt verbs of a format string.
var verbRe = regexp.MustCompile(`%[-+# 0]*(?:\[\d+\])?[0-9]*(?:\.[0-9]+)?(?:\[\d+\])?[a-zA-Z%]`)

// indexRe is the explicit argument index of a verb.
var indexRe = regexp.MustCompile(`\[(\d+)\]`)

// verbs lists the verbs of a format string by the argument each formats,
// sorted: a translation may reorder the arguments with %[n]s.
func verbs(s string) string {
	var out []string
	next := 1
	for _, v := range verbRe.FindAllString(s, -1) {
		if v == "%%" {
			continue
		}
		n := next
		if m := indexRe.FindStringSubmatch(v); m != nil {
			n, _ = strconv.Atoi(m[1])
			v = indexRe.ReplaceAllString(v, "")
		}
		next = n + 1
		// A Japanese text quotes with 「%s」 where the English has %q.
		v = strings.TrimSuffix(v, "q") + map[bool]string{true: "s"}[strings.HasSuffix(v, "q")]
		out = append(out, fmt.Sprintf("%d:%s", n, v))
	}
	sort.Strings(out)
	return strings.Join(out, " ")
}

// CheckCatalogue fails t for every entry of c whose English key is no
// string literal of dir's Go files other than ja.go, where catalogues live
// (a sum of literals "a " + "b" counts as one): such an entry is dead, and the English it once translated now goes
// out untranslated; live are texts the package renders that come from
// elsewhere (another package's messages), alive too. It also fails entries
// whose Japanese has other fmt verbs than the English.
func CheckCatalogue(t testing.TB, c lang.Catalogue, dir string, live ...string) {
	t.Helper()
	lits := map[string]bool{}
	for _, s := range live {
		lits[s] = true
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") || filepath.Base(f) == "ja.go" {
			continue
		}
		for _, s := range Literals(t, f) {
			lits[s] = true
		}
	}
	for en, ja := range c {
		if !lits[en] {
			t.Errorf("catalogue entry %q is no string in %s: update or remove it", en, dir)
		}
		if a, b := verbs(en), verbs(ja); a != b {
			t.Errorf("catalogue entry %q: verbs %q, Japanese has %q", en, a, b)
		}
		// Rendered with sample arguments, neither may hold a fmt error
		// (%!d(BADINDEX) and the like).
		args := sampleArgs(en)
		if out := fmt.Sprintf(ja, args...); len(args) > 0 && strings.Contains(out, "%!") {
			t.Errorf("catalogue entry %q renders as %q", en, out)
		}
	}
}

// sampleArgs are arguments for the verbs of the English format en: a
// number for %d, a string otherwise.
func sampleArgs(en string) []any { return verbArgs(en, "x", 'x') }

// verbArgs are arguments for the verbs of the English format en: 7 for a
// number, c for a character, str for anything else.
func verbArgs(en, str string, c rune) []any {
	var args []any
	for _, v := range verbRe.FindAllString(en, -1) {
		switch {
		case v == "%%":
		case strings.HasSuffix(v, "d"), strings.HasSuffix(v, "X"):
			args = append(args, 7)
		case strings.HasSuffix(v, "c"):
			args = append(args, c)
		default:
			args = append(args, str)
		}
	}
	return args
}

// Literals returns the string literals of a Go file and the jsonschema
// descriptions of its struct tags; a sum of literals ("a " + "b") is one, as
// the sentence it builds.
func Literals(t testing.TB, path string) []string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	var flat func(ast.Expr) (string, bool)
	flat = func(e ast.Expr) (string, bool) {
		switch x := e.(type) {
		case *ast.BasicLit:
			if s, err := strconv.Unquote(x.Value); err == nil && x.Kind == token.STRING {
				return s, true
			}
		case *ast.BinaryExpr:
			if x.Op == token.ADD {
				a, ok1 := flat(x.X)
				b, ok2 := flat(x.Y)
				return a + b, ok1 && ok2
			}
		case *ast.ParenExpr:
			return flat(x.X)
		}
		return "", false
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.ImportSpec:
			return false
		case *ast.Field:
			// A struct tag's jsonschema description is a text too.
			if x.Tag != nil {
				if tag, err := strconv.Unquote(x.Tag.Value); err == nil {
					if d := reflect.StructTag(tag).Get("jsonschema"); d != "" {
						out = append(out, d)
					}
				}
			}
		case *ast.BinaryExpr:
			if s, ok := flat(x); ok && x.Op == token.ADD {
				out = append(out, s)
				return false
			}
		case *ast.BasicLit:
			if s, ok := flat(x); ok {
				out = append(out, s)
			}
		}
		return true
	})
	return out
}
