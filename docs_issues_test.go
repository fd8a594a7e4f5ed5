package aiheart

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// issueRef is a citation of an issue by number: the word, maybe a "#",
// and digits.
var issueRef = regexp.MustCompile(`\b[Ii]ssues? #?[0-9]+\b`)

// TestNoIssueNumbers: no code comment, test or doc cites an issue by
// number. The repository has no issue tracker, so a number sends the reader
// nowhere; the comment says the reason instead.
func TestNoIssueNumbers(t *testing.T) {
	err := filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); p != "." && (strings.HasPrefix(n, ".") || n == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		switch filepath.Ext(p) {
		case ".go", ".md", ".yaml", ".yml", ".sh":
		default:
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(b), "\n") {
			if m := issueRef.FindString(line); m != "" {
				t.Errorf("%s:%d cites %q: say the reason instead", p, i+1, m)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
