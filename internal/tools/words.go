package tools

import (
	"errors"
	"io/fs"
	"strings"
	"syscall"
	"time"

	"github.com/ai-heart/ai-heart/internal/lang"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// clockIn is an RFC 3339 time of a reply's structured content as its text
// says it, in either language: the one local form, 15:04:05, that the
// notices and the other replies use too (the time carries the workspace's
// offset; the structured content keeps the full time).
func clockIn(rfc3339 string) string {
	t, err := time.Parse(time.RFC3339, rfc3339)
	if err != nil {
		return rfc3339
	}
	return t.Format("15:04:05")
}

// levelWord is a threshold's level in language l.
func levelWord(l lang.Lang, level string) string {
	switch level {
	case "info":
		return tr(l, "info")
	case "warning":
		return tr(l, "warning")
	case "error":
		return tr(l, "error")
	}
	return level
}

// partReasons are workspace.CheckPart's reasons, named here so the
// catalogue holds their Japanese (a test keeps the two lists in step).
var partReasons = []string{
	"empty",
	"not valid UTF-8",
	"longer than %d bytes",
	"%q contains a path separator; give one folder name",
	"%q contains ..",
	"%q starts with a dot",
	"%q ends with a dot",
	"%q contains a path separator",
	"%q contains '%c', which Windows forbids in names",
	"%q contains a control character",
	"%q contains a bidirectional control (U+%04X), which makes a name read other than it is",
	"%q is a device name on Windows (CON, PRN, AUX, NUL, COM1-9, LPT1-9), where such a folder cannot be opened",
}

// partProblem is why a directory part was refused, in words rendered in the
// agent's language (the English is workspace's error, word for word).
func partProblem(err error) say {
	var pe *workspace.PartError
	if errors.As(err, &pe) {
		return sayf("bad directory name: %s", sayf(pe.Format, pe.Args...))
	}
	return osReason(err)
}

// nameProblem is why a file name was refused: CheckPart's reason alone,
// since "bad directory name" and "give one folder name" would call a file a
// folder.
func nameProblem(err error) say {
	var pe *workspace.PartError
	if !errors.As(err, &pe) {
		return osReason(err)
	}
	if pe.Format == "%q contains a path separator; give one folder name" {
		return sayf("%q contains a path separator", pe.Args...)
	}
	return sayf(pe.Format, pe.Args...)
}

// osReason is why a file operation failed, in words for the agent: the
// kinds it can act on said in its language, the system's own message kept
// in backquotes beside them for the path, and a message of any other kind
// only quoted, so no loose English reaches a Japanese agent.
func osReason(err error) say {
	var out *workspace.OutsideError
	raw := "`" + strings.ReplaceAll(err.Error(), "`", "'") + "`"
	switch {
	case errors.As(err, &out):
		return sayf("%s leads to %s through a symlink", out.Rel, out.Target)
	case errors.Is(err, workspace.ErrOutside):
		return sayf("the path would leave the workspace (%s)", raw)
	case errors.Is(err, fs.ErrPermission):
		return sayf("permission denied (%s)", raw)
	case errors.Is(err, syscall.ENOSPC):
		return sayf("no space left on the disk (%s)", raw)
	case errors.Is(err, syscall.EROFS):
		return sayf("the file system is read-only (%s)", raw)
	case errors.Is(err, fs.ErrNotExist):
		return sayf("a file or folder is missing (%s)", raw)
	}
	return sayf("the system reported %s", raw)
}
