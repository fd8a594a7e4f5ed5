package aiheart

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// module is this repository's module path. The map names its packages by
// their path under internal/ ("cost/tokens"), the root one as "the root
// package".
const module = "github.com/ai-heart/ai-heart"

// mapLine is a package's line in docs/architecture.md: "- `internal/scan`: ...".
var mapLine = regexp.MustCompile("(?m)^- `((?:cmd|internal)/[^`]+)`: (.*)$")

// TestArchitectureMapsEveryPackage: docs/architecture.md has one line for
// each Go package under cmd/ and internal/ (testdata aside), and none for a
// package that is gone, so a package added or removed without the map
// fails here; and each line's Imports names exactly the packages of this
// module that `go list` says it imports, so an import added or dropped
// without the map fails too.
func TestArchitectureMapsEveryPackage(t *testing.T) {
	b, err := os.ReadFile("docs/architecture.md")
	if err != nil {
		t.Fatal(err)
	}
	lines := map[string]string{}
	var mapped []string
	for _, m := range mapLine.FindAllStringSubmatch(string(b), -1) {
		if slices.Contains(mapped, m[1]) {
			t.Errorf("docs/architecture.md maps %s twice", m[1])
		}
		mapped = append(mapped, m[1])
		lines[m[1]] = m[2]
	}
	tree := goPackages(t, "cmd", "internal")
	for _, p := range tree {
		if !slices.Contains(mapped, p) {
			t.Errorf("package %s has no line in docs/architecture.md", p)
		}
	}
	for _, p := range mapped {
		if !slices.Contains(tree, p) {
			t.Errorf("docs/architecture.md maps %s, which is not a package of the tree", p)
		}
	}
	real := moduleImports(t)
	for _, p := range mapped {
		got, ok := real[p]
		if !ok {
			continue // not a package of the tree: said above
		}
		said, err := mappedImports(lines[p], tree)
		if err != nil {
			t.Errorf("docs/architecture.md, %s: %v", p, err)
			continue
		}
		if !slices.Equal(said, got) {
			t.Errorf("docs/architecture.md, %s: Imports says %s; go list says %s",
				p, spell(said), spell(got))
		}
	}
}

// TestMappedImports: the forms of the Imports clause the map uses, read as
// the packages of this module they name; a name before the ";" that is no
// package of the tree is an error, so a typo cannot pass for a module.
func TestMappedImports(t *testing.T) {
	tree := []string{"internal/safeopen", "internal/tools/toolnames", "internal/workspace", "internal/lang", "internal/clients", "internal/hook"}
	for line, want := range map[string]string{
		"the idea. Imports: the standard library only.":                                "",
		"the idea (a, b). Imports: the standard library only (heart-hook links it).":   "",
		"the idea. Imports: nothing (heart-hook links it).":                            "",
		"the idea. Imports: nothing of this module; zerolog.":                          "",
		"the idea. Imports: safeopen, tools/toolnames only (heart-hook links it).":     "safeopen tools/toolnames",
		"the idea. Imports: workspace, lang; renameio, flock.":                         "lang workspace",
		"the idea. Imports: the root package (the embedded assets), clients; go-toml.": "(root) clients",
		"a (b), c. Imports: clients (for the dialect, and more), hook.":                "clients hook",
	} {
		got, err := mappedImports(line, tree)
		if err != nil {
			t.Errorf("%q: %v", line, err)
			continue
		}
		if strings.Join(got, " ") != want {
			t.Errorf("%q: got %q, want %q", line, strings.Join(got, " "), want)
		}
	}
	for _, line := range []string{
		"the idea, no clause.",
		"the idea. Imports: zerolog.",
		"the idea. Imports: workspce, lang.",
		"the idea. Imports: lang, lang.",
	} {
		if got, err := mappedImports(line, tree); err == nil {
			t.Errorf("%q: read as %q, want an error", line, got)
		}
	}
}

var (
	importsClause = regexp.MustCompile(`Imports: (.*?)\.?$`)
	parenthetical = regexp.MustCompile(`\s*\([^)]*\)`)
)

// mappedImports reads a map line's Imports clause, "ours; others": the
// packages of this module it names before the ";", sorted, "(root)" for
// the root package.
func mappedImports(line string, tree []string) ([]string, error) {
	m := importsClause.FindStringSubmatch(line)
	if m == nil {
		return nil, errors.New("no Imports clause")
	}
	ours, _, _ := strings.Cut(m[1], ";")
	ours = parenthetical.ReplaceAllString(ours, "")
	ours = strings.TrimSuffix(strings.TrimSpace(ours), " only")
	switch ours {
	case "the standard library", "nothing", "nothing of this module":
		return nil, nil
	}
	var out []string
	for name := range strings.SplitSeq(ours, ",") {
		name = strings.TrimSpace(name)
		switch {
		case name == "the root package":
			name = "(root)"
		case !slices.Contains(tree, "internal/"+name):
			return nil, fmt.Errorf("%q is no package of this module (others' modules go after a \";\")", name)
		}
		if slices.Contains(out, name) {
			return nil, fmt.Errorf("%q named twice", name)
		}
		out = append(out, name)
	}
	slices.Sort(out)
	return out, nil
}

// moduleImports asks `go list` what each package under cmd/ and internal/
// imports of this module (tests aside), in the map's names, sorted.
func moduleImports(t *testing.T) map[string][]string {
	t.Helper()
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to list the imports with")
	}
	cmd := exec.Command(gobin, "list", "-f", "{{.ImportPath}}{{range .Imports}} {{.}}{{end}}", "./cmd/...", "./internal/...")
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	res := map[string][]string{}
	for l := range strings.Lines(string(out)) {
		f := strings.Fields(l)
		if len(f) == 0 {
			continue
		}
		p := strings.TrimPrefix(f[0], module+"/")
		res[p] = []string{}
		for _, imp := range f[1:] {
			switch {
			case imp == module:
				res[p] = append(res[p], "(root)")
			case strings.HasPrefix(imp, module+"/internal/"):
				res[p] = append(res[p], strings.TrimPrefix(imp, module+"/internal/"))
			}
		}
		slices.Sort(res[p])
	}
	return res
}

func spell(names []string) string {
	if len(names) == 0 {
		return "nothing of this module"
	}
	return strings.Join(names, ", ")
}

// goPackages lists the folders under roots that hold a non-test Go file,
// slash-separated, leaving out testdata and hidden folders.
func goPackages(t *testing.T, roots ...string) []string {
	t.Helper()
	var out []string
	for _, root := range roots {
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				if n := d.Name(); p != root && (n == "testdata" || strings.HasPrefix(n, ".") || strings.HasPrefix(n, "_")) {
					return filepath.SkipDir
				}
				return nil
			}
			if strings.HasSuffix(p, ".go") && !strings.HasSuffix(p, "_test.go") {
				if dir := filepath.ToSlash(filepath.Dir(p)); !slices.Contains(out, dir) {
					out = append(out, dir)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return out
}
