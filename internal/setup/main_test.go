package setup

import (
	"os"
	"testing"

	"github.com/ai-heart/ai-heart/internal/testutil"
)

// TestMain gives these tests a home of their own: Init writes the clients'
// user settings in the agent's home.
func TestMain(m *testing.M) { os.Exit(testutil.RunIsolated(m)) }
