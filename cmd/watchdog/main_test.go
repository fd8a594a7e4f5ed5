package main

import (
	"os"
	"testing"

	"github.com/ai-heart/ai-heart/internal/testutil"
)

// TestMain keeps the pause files of these tests in a folder of their own.
func TestMain(m *testing.M) { os.Exit(testutil.RunIsolated(m)) }
