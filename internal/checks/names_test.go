package checks

import (
	"slices"
	"testing"

	"github.com/ai-heart/ai-heart/internal/lang"
	"github.com/ai-heart/ai-heart/internal/testutil"
)

// The Japanese catalogue test knows the check names, to fail on a bare one:
// its list is this package's.
func TestCatalogueTestKnowsEveryCheck(t *testing.T) {
	if !slices.Equal(testutil.CheckNames, Names) {
		t.Errorf("testutil.CheckNames = %v, want checks.Names %v", testutil.CheckNames, Names)
	}
}

// A check's name in a Japanese sentence is glossed as the docs gloss it, or
// backquoted; never bare.
func TestNameInJapanese(t *testing.T) {
	for _, c := range Names {
		testutil.CheckJapanese(t, c, "次は"+Name(c).In(lang.Japanese)+"です。")
	}
	if got := Name(Inactivity).In(lang.Japanese); got != "無活動（`inactivity`）" {
		t.Errorf("inactivity in Japanese = %q", got)
	}
}
