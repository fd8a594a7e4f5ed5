package delivery

import (
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/ai-heart/ai-heart/internal/testutil"
)

// binDir holds the helper programs the tests build from testdata/.
var binDir string

func TestMain(m *testing.M) {
	os.Exit(testutil.RunWithBinaries(m, &binDir)) // helpers are built on first use
}

var (
	buildMu sync.Mutex
	built   = map[string]string{}
)

// buildHelper compiles testdata/<name> once per test run and returns the
// binary's path.
func buildHelper(t *testing.T, name string) string {
	t.Helper()
	buildMu.Lock()
	defer buildMu.Unlock()
	if p, ok := built[name]; ok {
		return p
	}
	out := filepath.Join(binDir, name)
	if err := testutil.Build("./testdata/"+name, out); err != nil {
		t.Fatal(err)
	}
	built[name] = out
	return out
}
