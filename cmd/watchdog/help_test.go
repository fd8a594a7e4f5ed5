package main

import (
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// TestHelpListsEveryFlag: watchdog --help lists each command with every
// flag its code registers (found in the source, not in the help's own
// tables), and `watchdog CMD -h` says the same as that command's part.
func TestHelpListsEveryFlag(t *testing.T) {
	registered := flagsInSource(t)
	var out, errb strings.Builder
	if code := run(context.Background(), []string{"--help"}, &out, &errb); code != 0 {
		t.Fatalf("watchdog --help exited %d: %s", code, errb.String())
	}
	help := out.String()
	parts := map[string]string{} // command -> its part of the help
	var cur string
	for _, l := range strings.Split(help, "\n") {
		if rest, ok := strings.CutPrefix(l, "  watchdog "); ok {
			cur = strings.Fields(rest)[0]
		}
		if cur != "" {
			parts[cur] += l + "\n"
		}
	}
	for _, c := range commands {
		if c.name == "demo-agent" {
			continue // started by the demo, not by a person
		}
		fn := runtime.FuncForPC(reflect.ValueOf(c.run).Pointer()).Name()
		fn = fn[strings.LastIndex(fn, ".")+1:]
		part, ok := parts[c.name]
		if !ok {
			t.Errorf("watchdog --help does not list %s:\n%s", c.name, help)
			continue
		}
		if len(registered[fn]) == 0 {
			t.Errorf("%s (%s): no flags found in the source; the test's scan is wrong", c.name, fn)
		}
		for _, f := range registered[fn] {
			dash := "--"
			if len(f) == 1 {
				dash = "-"
			}
			if !strings.Contains(part, " "+dash+f+" ") && !strings.Contains(part, " "+dash+f+"\n") {
				t.Errorf("watchdog --help, %s: no %s%s in\n%s", c.name, dash, f, part)
			}
		}
		var cout, cerr strings.Builder
		if code := c.run(context.Background(), []string{"-h"}, &cout, &cerr); code != 0 {
			t.Errorf("watchdog %s -h exited %d", c.name, code)
		}
		if got := strings.TrimPrefix(cerr.String(), "usage: "); strings.TrimSpace(got) != strings.TrimSpace(part) {
			t.Errorf("watchdog %s -h says\n%s\nwatchdog --help says\n%s", c.name, got, part)
		}
	}
	for _, want := range []string{"--client NAME", "--systemd-user", "--json", "--brief", "--day DATE", "--mqtt URL"} {
		if !strings.Contains(help, want) {
			t.Errorf("watchdog --help lacks %s", want)
		}
	}
}

// flagsInSource lists, by function, the flag names this package's code
// registers: fs.String("name", ...) and the like, and configFlag's -c.
func flagsInSource(t *testing.T) map[string][]string {
	t.Helper()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				if id, ok := call.Fun.(*ast.Ident); ok && id.Name == "configFlag" {
					out[fd.Name.Name] = append(out[fd.Name.Name], "c")
				}
				sel, ok := call.Fun.(*ast.SelectorExpr)
				if !ok || len(call.Args) == 0 {
					return true
				}
				recv, ok := sel.X.(*ast.Ident)
				lit, isLit := call.Args[0].(*ast.BasicLit)
				if !ok || !isLit || lit.Kind != token.STRING || (recv.Name != "fs" && recv.Name != "fl") {
					return true
				}
				switch sel.Sel.Name {
				case "String", "Bool", "Int", "Int64", "Uint", "Float64", "Duration", "Func", "BoolFunc", "Var", "TextVar":
					s, _ := strconv.Unquote(lit.Value)
					out[fd.Name.Name] = append(out[fd.Name.Name], s)
				}
				return true
			})
		}
	}
	return out
}
