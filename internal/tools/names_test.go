package tools

import (
	"strings"
	"testing"

	"github.com/ai-heart/ai-heart/internal/lang"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// A themebox_file is a file name: its error must not call it a directory
// or ask for a folder name, in either language.
func TestNameProblemCallsAFileAFile(t *testing.T) {
	_, err := workspace.CheckPart("../GEMINI.md")
	if err == nil {
		t.Fatal("CheckPart accepted ../GEMINI.md")
	}
	for _, l := range []lang.Lang{lang.English, lang.Japanese} {
		got := nameProblem(err).in(l)
		for _, bad := range []string{"directory", "folder", "ディレクトリ名", "フォルダ名"} {
			if strings.Contains(got, bad) {
				t.Errorf("%s: %q says %q", l, got, bad)
			}
		}
		if !strings.Contains(got, "../GEMINI.md") {
			t.Errorf("%s: %q does not name the value", l, got)
		}
	}
}
