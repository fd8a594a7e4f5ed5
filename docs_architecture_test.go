package aiheart

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// mapLine is a package's line in docs/architecture.md: "- `internal/scan`: ...".
var mapLine = regexp.MustCompile("(?m)^- `((?:cmd|internal)/[^`]+)`: ")

// TestArchitectureMapsEveryPackage: docs/architecture.md has one line for
// each Go package under cmd/ and internal/ (testdata aside), and none for a
// package that is gone, so a package added or removed without the map
// fails here.
func TestArchitectureMapsEveryPackage(t *testing.T) {
	b, err := os.ReadFile("docs/architecture.md")
	if err != nil {
		t.Fatal(err)
	}
	var mapped []string
	for _, m := range mapLine.FindAllStringSubmatch(string(b), -1) {
		if slices.Contains(mapped, m[1]) {
			t.Errorf("docs/architecture.md maps %s twice", m[1])
		}
		mapped = append(mapped, m[1])
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
