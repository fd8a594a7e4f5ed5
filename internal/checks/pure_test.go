package checks

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestChecksArePure: the package doc's promise, read from the source: no
// file of the checks imports a package that reads or writes (files,
// network, processes), holds a workspace handle, or reads the clock. What
// they want done comes back as Actions, carried out by the daemon.
func TestChecksArePure(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	io := []string{"os", "os/exec", "io/fs", "io/ioutil", "net", "net/http", "syscall",
		"github.com/ai-heart/ai-heart/internal/safeopen", "github.com/ai-heart/ai-heart/internal/statefile"}
	clock := []string{"Now", "Since", "Until", "Sleep", "After", "Tick", "NewTimer", "NewTicker", "AfterFunc"}
	n := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		n++
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			if p, _ := strconv.Unquote(imp.Path.Value); slices.Contains(io, p) {
				t.Errorf("%s imports %s", name, p)
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if pkg, ok := sel.X.(*ast.Ident); ok {
				switch {
				case pkg.Name == "time" && slices.Contains(clock, sel.Sel.Name):
					t.Errorf("%s reads the clock: time.%s", name, sel.Sel.Name)
				case pkg.Name == "workspace" && sel.Sel.Name == "Workspace":
					t.Errorf("%s holds a workspace handle (workspace.Workspace)", name)
				}
			}
			return true
		})
	}
	if n < 10 {
		t.Fatalf("read %d source files of the checks", n)
	}
}
