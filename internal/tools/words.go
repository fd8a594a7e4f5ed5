package tools

import (
	"errors"
	"time"

	"github.com/ai-heart/ai-heart/internal/lang"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// clockIn is an RFC 3339 time of a reply's structured content as its text
// says it: unchanged in English; in Japanese the one local form, 15:04:05
// (the time carries the workspace's offset).
func clockIn(l lang.Lang, rfc3339 string) string {
	if l != lang.Japanese {
		return rfc3339
	}
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
	return sayf("%s", err.Error())
}
