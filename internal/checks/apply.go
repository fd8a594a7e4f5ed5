package checks

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/ai-heart/ai-heart/internal/workspace"
)

// ErrBadAction reports an action that names a file outside the folder its
// kind may touch; it is refused, never carried out.
var ErrBadAction = errors.New("bad action")

// Apply carries out actions on the workspace, the I/O edge of the checks.
// Renames never replace an existing file (workspace.Rename), so nothing the
// agent or user wrote is lost; a file already gone is not an error (another
// process renamed it first). Expired restriction markers are removed, as
// docs/design.md section 5 says. Every action is tried; the errors of those that failed are
// returned.
func Apply(ws *workspace.Workspace, actions []Action) []error {
	var errs []error
	for _, a := range actions {
		if err := apply(ws, a); err != nil {
			errs = append(errs, fmt.Errorf("%s %s: %w", a.Kind, a.Rel, err))
		}
	}
	return errs
}

func apply(ws *workspace.Workspace, a Action) error {
	switch a.Kind {
	case ExpireDeclaration, InvalidateDeclaration, CompleteDeclaration:
		if !within(a.Rel, workspace.DeepWorkDir) || !within(a.NewRel, workspace.DeepWorkDir) {
			return fmt.Errorf("%w: %s -> %s is not inside %s", ErrBadAction, a.Rel, a.NewRel, workspace.DeepWorkDir)
		}
	case StripInterrupt:
		if !within(a.Rel, workspace.FeedbackboxDir) || !within(a.NewRel, workspace.FeedbackboxDir) {
			return fmt.Errorf("%w: %s -> %s is not inside %s", ErrBadAction, a.Rel, a.NewRel, workspace.FeedbackboxDir)
		}
	case RemoveMarker:
		if !within(a.Rel, workspace.CooldownDir) && !within(a.Rel, workspace.LockDir) {
			return fmt.Errorf("%w: %s is not a restriction marker", ErrBadAction, a.Rel)
		}
		// Through the workspace's root: a marker folder swapped for a
		// link out between the check and the removal removes nothing there.
		if err := ws.Remove(a.Rel); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		return nil
	default:
		return fmt.Errorf("%w: unknown kind %q", ErrBadAction, a.Kind)
	}
	if _, err := ws.Lstat(a.Rel); errors.Is(err, fs.ErrNotExist) {
		return nil // already renamed by someone else (mcp-heart, the agent)
	}
	return ws.Rename(a.Rel, a.NewRel)
}

// within reports whether rel names a file directly inside dir.
func within(rel, dir string) bool {
	return path.Dir(rel) == dir && !strings.Contains(rel, `\`) && !strings.HasPrefix(path.Base(rel), ".") && path.Clean(rel) == rel
}
