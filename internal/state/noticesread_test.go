package state

import (
	"os"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/workspace"
)

func TestNoticesRead(t *testing.T) {
	ws, err := workspace.New(t.TempDir(), time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	if err := ws.EnsureSkeleton(); err != nil {
		t.Fatal(err)
	}
	if got, err := NoticesRead(ws); err != nil || !got.IsZero() {
		t.Fatalf("NoticesRead(no file) = %v, %v; want zero, nil", got, err)
	}
	at := time.Date(2026, 11, 24, 9, 30, 0, 123456789, time.UTC)
	if err := MarkNoticesRead(ws, at); err != nil {
		t.Fatal(err)
	}
	if got, err := NoticesRead(ws); err != nil || !got.Equal(at) {
		t.Fatalf("NoticesRead = %v, %v; want %v", got, err, at)
	}
	if err := os.WriteFile(ws.Path(NoticesReadFile), []byte("garbage"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := NoticesRead(ws); err == nil || !got.IsZero() {
		t.Fatalf("NoticesRead(garbage) = %v, %v; want an error", got, err)
	}
}
