package setup

import (
	"fmt"
	"os"
	"testing"

	"github.com/ai-heart/ai-heart/internal/testutil"
)

// TestMain gives these tests a home of their own: Init writes the clients'
// user settings in the agent's home.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "aiheart-test-home-")
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
