package migrate

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/ai-heart/ai-heart/internal/budget"
	"github.com/ai-heart/ai-heart/internal/cost"
	"github.com/ai-heart/ai-heart/internal/day"
	"github.com/ai-heart/ai-heart/internal/safeopen"
	"github.com/ai-heart/ai-heart/internal/statefile"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// StateFiles moves the watchdog's own state that older versions kept in
// the workspace (stats/daily_cap.json, stats/circuit_breaker.json,
// stats/cost.json and the day strip's stats/day/) to the agent's state
// folder dir, where the watchdog now keeps it out of the agent's reach.
//
// Each file is copied (0600, the folder 0700) and the old one renamed
// <name>.migrated: nothing is deleted. A file the state folder already
// holds with the same content counts as done; with other content it is a
// conflict, never replaced, and the old file stays in place. Anything but
// a regular file is skipped. Run it with the watchdog stopped: a running
// one writes the state folder itself. Running it twice changes nothing.
func StateFiles(ws *workspace.Workspace, dir string) ([]Step, error) {
	var steps []Step
	for _, name := range []string{budget.DailyCapFile, budget.BreakerFile, cost.File} {
		s, err := moveState(ws, "stats/"+name, filepath.Join(dir, name))
		if err != nil {
			return steps, err
		}
		steps = append(steps, s...)
	}
	s, err := moveDays(ws, "stats/"+day.Dir, filepath.Join(dir, day.Dir))
	return append(steps, s...), err
}

// moveState copies the workspace file from to the state file to, then
// renames from.
func moveState(ws *workspace.Workspace, from, to string) ([]Step, error) {
	fi, err := os.Lstat(ws.Path(from))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil
	case err != nil:
		return nil, fmt.Errorf("migrate %s: %w", from, err)
	case !fi.Mode().IsRegular():
		return []Step{{Kind: Skipped, From: from, Note: "not a regular file"}}, nil
	}
	step, err := copyState(ws, from, to)
	if err != nil || step.Kind == Conflict {
		return []Step{step}, err
	}
	renamed, err := keepOld(ws, from)
	return []Step{step, renamed}, err
}

// copyState copies one workspace file into the state folder.
func copyState(ws *workspace.Workspace, from, to string) (Step, error) {
	data, err := workspace.ReadAgentFile(ws.Path(from), statefile.MaxFile)
	if err != nil {
		return Step{}, fmt.Errorf("read %s: %w", from, err)
	}
	old, err := safeopen.ReadAll(to, statefile.MaxFile)
	switch {
	case err == nil && bytes.Equal(old, data):
		return Step{Kind: Done, From: from, To: to}, nil
	case err == nil:
		return Step{Kind: Conflict, From: from, To: to, Note: "the state folder has its own; the old file stays"}, nil
	case !errors.Is(err, fs.ErrNotExist):
		return Step{}, fmt.Errorf("migrate %s: %w", from, err)
	}
	if err := statefile.EnsureDir(filepath.Dir(to)); err != nil {
		return Step{}, err
	}
	if err := workspace.AtomicWriteFile(to, data, statefile.FileMode); err != nil {
		return Step{}, fmt.Errorf("migrate %s: %w", from, err)
	}
	return Step{Kind: Copied, From: from, To: to}, nil
}

// keepOld renames the workspace path rel to rel.migrated (or a free name
// after it).
func keepOld(ws *workspace.Workspace, rel string) (Step, error) {
	to, err := freeName(ws, rel+MigratedSuffix)
	if err != nil {
		return Step{}, err
	}
	if err := ws.Rename(rel, to); err != nil {
		return Step{}, fmt.Errorf("rename %s: %w", rel, err)
	}
	return Step{Kind: Renamed, From: rel, To: to, Note: "kept, nothing deleted"}, nil
}

// moveDays copies the day files of the workspace folder from into the
// state folder's to, then renames from when no conflict is left.
func moveDays(ws *workspace.Workspace, from, to string) ([]Step, error) {
	ents, err := workspace.ReadAgentDir(ws.Path(from))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return []Step{{Kind: Skipped, From: from + "/", Note: err.Error()}}, nil
	}
	var steps []Step
	conflict := false
	for _, e := range ents {
		name := e.Name()
		rel := from + "/" + name
		switch {
		case strings.HasPrefix(name, "."):
			continue
		case !e.Type().IsRegular() || !strings.HasSuffix(name, ".jsonl"):
			steps = append(steps, Step{Kind: Skipped, From: rel, Note: "not a day file"})
			continue
		}
		s, err := copyState(ws, rel, filepath.Join(to, name))
		if err != nil {
			return steps, err
		}
		conflict = conflict || s.Kind == Conflict
		steps = append(steps, s)
	}
	if conflict {
		return steps, nil
	}
	renamed, err := keepOld(ws, from)
	if err != nil {
		return steps, err
	}
	renamed.From, renamed.To = renamed.From+"/", renamed.To+"/"
	return append(steps, renamed), nil
}
