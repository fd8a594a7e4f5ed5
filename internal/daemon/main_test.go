package daemon

import (
	"fmt"
	"os"
	"testing"

	"github.com/ai-heart/ai-heart/internal/testutil"
)

// TestMain keeps the pause files of these tests in a folder of their own.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "aiheart-test-state-")
	if err == nil {
		err = testutil.IsolateState(dir)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
