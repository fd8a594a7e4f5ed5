package aiheart

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"regexp"
	"strings"
	"testing"
)

// routeStep is one step of a route in docs/architecture.md:
// "`internal/daemon/gate.go:gate.step`", a function or Type.Method.
var routeStep = regexp.MustCompile("(?m)^\\d+\\. `([\\w./-]+\\.go):(?:(\\w+)\\.)?(\\w+)`")

// TestArchitectureRoutesExist: each step of the map's two routes names a
// function (or a method of the type named) declared in the file named, as
// go/parser reads it, so a function renamed or moved to another file
// fails here until the route says so.
func TestArchitectureRoutesExist(t *testing.T) {
	b, err := os.ReadFile("docs/architecture.md")
	if err != nil {
		t.Fatal(err)
	}
	_, routes, ok := strings.Cut(string(b), "\n## Two routes, function by function\n")
	if !ok {
		t.Fatal("docs/architecture.md has no section \"Two routes, function by function\"")
	}
	routes, _, _ = strings.Cut(routes, "\n## ")
	steps := routeStep.FindAllStringSubmatch(routes, -1)
	if len(steps) < 40 {
		t.Fatalf("the two routes have %d steps; want them both, over 40", len(steps))
	}
	decls := map[string]map[string]bool{}
	for _, s := range steps {
		file, recv, fn := s[1], s[2], s[3]
		if decls[file] == nil {
			d, err := funcDecls(file, nil)
			if err != nil {
				t.Errorf("route step %s: %v", s[0], err)
				continue
			}
			decls[file] = d
		}
		if !decls[file][recv+"."+fn] {
			t.Errorf("route step %s: %s declares no %s", s[0], file, strings.TrimPrefix(recv+"."+fn, "."))
		}
	}
}

// TestFuncDeclsNamesMethods: funcDecls keys a method by its receiver's type
// with or without a pointer or type parameters, a function by "." alone.
func TestFuncDeclsNamesMethods(t *testing.T) {
	src := `package p
func f() {}
func (*ptr) m() {}
func (value) m() {}
func (g *generic[T]) m() {}
func (g pair[K, V]) m() {}
`
	d, err := funcDecls("p.go", src)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{".f", "ptr.m", "value.m", "generic.m", "pair.m"} {
		if !d[k] {
			t.Errorf("funcDecls misses %q", k)
		}
	}
	if d[".m"] || d["value.f"] || len(d) != 5 {
		t.Errorf("funcDecls names what is not declared: %v", d)
	}
}

// funcDecls lists the functions declared in a Go file (read from src when
// not nil) as "recv.name", recv empty for a plain function.
func funcDecls(file string, src any) (map[string]bool, error) {
	f, err := parser.ParseFile(token.NewFileSet(), file, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	out := map[string]bool{}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok {
			continue
		}
		recv := ""
		if fd.Recv != nil && len(fd.Recv.List) > 0 {
			recv = typeName(fd.Recv.List[0].Type)
		}
		out[recv+"."+fd.Name.Name] = true
	}
	return out, nil
}

func typeName(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.StarExpr:
		return typeName(x.X)
	case *ast.IndexExpr:
		return typeName(x.X)
	case *ast.IndexListExpr:
		return typeName(x.X)
	case *ast.Ident:
		return x.Name
	}
	return ""
}
