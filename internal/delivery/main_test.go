package delivery

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// binDir holds the helper programs the tests build from testdata/.
var binDir string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "delivery-test-bin")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binDir = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
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
	cmd := exec.Command("go", "build", "-o", out, "./testdata/"+name)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build testdata/%s: %v\n%s", name, err, b)
	}
	built[name] = out
	return out
}
