package state

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/ai-heart/ai-heart/internal/workspace"
)

// NoticesReadFile is where mcp-heart notes that a tool reply carried the
// notices of the state written at a pulse: the watchdog then keeps no notice
// that pulse had for the next wakeup, since the agent has read it.
const NoticesReadFile = "stats/notices_read.txt"

// MarkNoticesRead notes that a reply carried the notices of the state
// written at pulseAt.
func MarkNoticesRead(ws *workspace.Workspace, pulseAt time.Time) error {
	return ws.WriteFile(NoticesReadFile, []byte(pulseAt.UTC().Format(time.RFC3339Nano)+"\n"))
}

// NoticesRead is the pulse whose notices a tool reply last carried; zero
// when none did. The file is the agent's to write, so only a small regular
// file is read.
func NoticesRead(ws *workspace.Workspace) (time.Time, error) {
	f, err := os.OpenFile(ws.Path(NoticesReadFile), os.O_RDONLY|oNonblock, 0)
	if errors.Is(err, os.ErrNotExist) {
		return time.Time{}, nil
	}
	if err != nil {
		return time.Time{}, fmt.Errorf("read %s: %w", NoticesReadFile, err)
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return time.Time{}, fmt.Errorf("read %s: not a regular file", NoticesReadFile)
	}
	b, err := io.ReadAll(io.LimitReader(f, 64))
	if err != nil {
		return time.Time{}, fmt.Errorf("read %s: %w", NoticesReadFile, err)
	}
	t, err := time.Parse(time.RFC3339Nano, strings.TrimSpace(string(b)))
	if err != nil {
		return time.Time{}, fmt.Errorf("read %s: %w", NoticesReadFile, err)
	}
	return t, nil
}
