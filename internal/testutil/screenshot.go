package testutil

import (
	"os"
	"path/filepath"
	"testing"
)

// SaveScreenshot writes a test's picture as name in $SCREENSHOT_DIR (the docs'
// pictures are retaken so: SCREENSHOT_DIR=$PWD/docs), else in a temporary
// folder.
func SaveScreenshot(t testing.TB, name string, png []byte) {
	t.Helper()
	dir := os.Getenv("SCREENSHOT_DIR")
	if dir == "" {
		dir = t.TempDir()
	}
	if err := os.WriteFile(filepath.Join(dir, name), png, 0o644); err != nil {
		t.Fatal(err)
	}
}
