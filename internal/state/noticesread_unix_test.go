//go:build unix

package state

import (
	"syscall"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/workspace"
)

// TestNoticesReadFIFO: a FIFO planted in the file's place must not hang the
// reader (the pulse reads it).
func TestNoticesReadFIFO(t *testing.T) {
	ws, err := workspace.New(t.TempDir(), time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	if err := ws.EnsureSkeleton(); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(ws.Path(NoticesReadFile), 0o644); err != nil {
		t.Skip("no mkfifo:", err)
	}
	if _, err := NoticesRead(ws); err == nil {
		t.Fatal("NoticesRead(FIFO) = nil error, want not a regular file")
	}
}
