package workspace

import (
	"os"

	"github.com/ai-heart/ai-heart/internal/safeopen"
)

// The agent writes anything in its workspace, so every file the watchdog
// reads there may be a FIFO, a device, a link, or a sparse file of
// gigabytes: these read through package safeopen, which opens without
// blocking, refuses anything but a regular file, and reads up to a cap.

// Caps on what is read of one agent-written file.
const (
	MaxSmallFile = 64 << 10 // declarations, markers, the pause and budget files, the current ID
	MaxTextFile  = 1 << 20  // activity logs, checkpoints, indexes, the state file
)

// ErrNotRegular reports a workspace path that is not a regular file (a FIFO,
// a device, a socket) where one was expected.
var ErrNotRegular = safeopen.ErrNotRegular

// ReadAgentFile returns at most max bytes from the start of the regular file
// at abs, without ever blocking on a FIFO. A longer file is cut at max.
func ReadAgentFile(abs string, max int64) ([]byte, error) { return safeopen.ReadHead(abs, max) }

// ReadAgentFileTail is ReadAgentFile keeping the last max bytes instead: for
// files whose newest line matters (checkpoints are appended to).
func ReadAgentFileTail(abs string, max int64) ([]byte, error) { return safeopen.ReadTail(abs, max) }

// OpenAgentDir opens the folder at abs for listing, without blocking if the
// agent put a FIFO in its place.
func OpenAgentDir(abs string) (*os.File, error) { return safeopen.OpenDir(abs) }

// ReadAgentDir is os.ReadDir through OpenAgentDir, sorted by name.
func ReadAgentDir(abs string) ([]os.DirEntry, error) { return safeopen.ReadDir(abs) }
