package tools

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"syscall"
	"time"

	"github.com/ai-heart/ai-heart/internal/checks"
	"github.com/ai-heart/ai-heart/internal/humanize"
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

// crossings are the crossed thresholds as the status reply names them:
// grouped by check, each check named once, and the pulse that will raise
// some of them said once, after the list.
type crossings struct {
	checks []string            // in order of first crossing
	levels map[string][]string // "warning (8s)", by check
	ahead  []string            // "inactivity warning", not yet raised
}

func (c *crossings) add(l lang.Lang, th ThresholdStatus, ahead bool) {
	if c.levels == nil {
		c.levels = map[string][]string{}
	}
	if _, ok := c.levels[th.Check]; !ok {
		c.checks = append(c.checks, th.Check)
	}
	lv := levelWord(l, th.Level)
	c.levels[th.Check] = append(c.levels[th.Check], fmt.Sprintf(tr(l, "%s (%s)"), lv, humanize.DurationIn(l, time.Duration(th.ThresholdSeconds)*time.Second)))
	if ahead {
		c.ahead = append(c.ahead, fmt.Sprintf(tr(l, "%s %s"), checkName(l, th.Check), lv))
	}
}

// text is the reply's line: "Watchdog thresholds crossed: inactivity
// warning (8s) and error (16s), introspection info (15m). The watchdog's
// next pulse will raise the inactivity error."
func (c *crossings) text(l lang.Lang) string {
	groups := make([]string, len(c.checks))
	for i, ch := range c.checks {
		groups[i] = fmt.Sprintf(tr(l, "%s %s"), checkName(l, ch), listAnd(l, c.levels[ch]))
	}
	out := tr(l, "Watchdog thresholds crossed: ") + strings.Join(groups, tr(l, ", ")) + tr(l, ".\n")
	if len(c.ahead) > 0 {
		out += fmt.Sprintf(tr(l, "The watchdog's next pulse will raise the %s.\n"), listAnd(l, c.ahead))
	}
	return out
}

// checkName is a check as a sentence names it: glossed in Japanese
// (無活動（`inactivity`）), plain in English.
func checkName(l lang.Lang, check string) string {
	if l == lang.Japanese {
		return checks.Name(check).In(l)
	}
	return check
}

// listAnd joins a short list: "a, b and c"; in Japanese 「a・b・c」.
func listAnd(l lang.Lang, xs []string) string {
	if l == lang.Japanese || len(xs) < 2 {
		return strings.Join(xs, "・")
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " and " + xs[len(xs)-1]
}
