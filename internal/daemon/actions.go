package daemon

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/ai-heart/ai-heart/internal/checks"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// errBadAction reports an action that names a file outside the folder its
// kind may touch; it is refused, never carried out.
var errBadAction = errors.New("bad action")

// applyActions carries out the checks' actions on the workspace: the I/O
// edge of the pure checks, in the daemon that runs them.
// Renames never replace an existing file (workspace.Rename), so nothing the
// agent or user wrote is lost; a file already gone is not an error (another
// process renamed it first). Expired restriction markers are removed, as
// docs/design.md section 5 says. Every action is tried; the errors of those that failed are
// returned.
func applyActions(ws *workspace.Workspace, actions []checks.Action) []error {
	var errs []error
	for _, a := range actions {
		if err := applyAction(ws, a); err != nil {
			errs = append(errs, fmt.Errorf("%s %s: %w", a.Kind, a.Rel, err))
		}
	}
	return errs
}

func applyAction(ws *workspace.Workspace, a checks.Action) error {
	switch a.Kind {
	case checks.ExpireDeclaration, checks.InvalidateDeclaration, checks.CompleteDeclaration:
		if !withinDir(a.Rel, workspace.DeepWorkDir) || !withinDir(a.NewRel, workspace.DeepWorkDir) {
			return fmt.Errorf("%w: %s -> %s is not inside %s", errBadAction, a.Rel, a.NewRel, workspace.DeepWorkDir)
		}
	case checks.StripInterrupt:
		if !withinDir(a.Rel, workspace.FeedbackboxDir) || !withinDir(a.NewRel, workspace.FeedbackboxDir) {
			return fmt.Errorf("%w: %s -> %s is not inside %s", errBadAction, a.Rel, a.NewRel, workspace.FeedbackboxDir)
		}
	case checks.RemoveMarker:
		if !withinDir(a.Rel, workspace.CooldownDir) && !withinDir(a.Rel, workspace.LockDir) {
			return fmt.Errorf("%w: %s is not a restriction marker", errBadAction, a.Rel)
		}
		// Through the workspace's root: a marker folder swapped for a
		// link out between the check and the removal removes nothing there.
		if err := ws.Remove(a.Rel); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		return nil
	default:
		return fmt.Errorf("%w: unknown kind %q", errBadAction, a.Kind)
	}
	if _, err := ws.Lstat(a.Rel); errors.Is(err, fs.ErrNotExist) {
		return nil // already renamed by someone else (mcp-heart, the agent)
	}
	return ws.Rename(a.Rel, a.NewRel)
}

// withinDir reports whether rel names a file directly inside dir.
func withinDir(rel, dir string) bool {
	return path.Dir(rel) == dir && !strings.Contains(rel, `\`) && !strings.HasPrefix(path.Base(rel), ".") && path.Clean(rel) == rel
}
