package web

import (
	"errors"
	"io/fs"
	"net/http"
	"regexp"
)

// Logs reads an agent's activity logs for the page, read only.
type Logs interface {
	// Log returns the activity log at rel (workspace-relative, under
	// artifacts/<theme>/histories/); ErrUnknownAgent for a name it does
	// not run, fs.ErrNotExist for no such log.
	Log(agent, rel string) ([]byte, error)
}

// LogPath is the shape of a path the log endpoint serves: an activity log
// of a theme, nothing else of the workspace.
var LogPath = regexp.MustCompile(`^artifacts/[^/]+/histories/[^/]+\.md$`)

// logText serves GET /api/v1/agents/{name}/log?path=REL as plain text.
func (s *Server) logText(w http.ResponseWriter, r *http.Request) {
	if s.opts.Logs == nil {
		writeJSON(w, http.StatusNotImplemented, map[string]any{"error": "this source keeps no logs"})
		return
	}
	rel := r.URL.Query().Get("path")
	if !LogPath.MatchString(rel) {
		writeJSON(w, http.StatusBadRequest, map[string]any{"error": "path: want artifacts/<theme>/histories/<ID>.md"})
		return
	}
	b, err := s.opts.Logs.Log(r.PathValue("name"), rel)
	switch {
	case errors.Is(err, ErrUnknownAgent):
		writeJSON(w, http.StatusNotFound, map[string]any{"error": "no agent " + r.PathValue("name")})
	case errors.Is(err, fs.ErrNotExist):
		writeJSON(w, http.StatusNotFound, map[string]any{"error": "no log " + rel})
	case err != nil:
		writeJSON(w, http.StatusForbidden, map[string]any{"error": err.Error()})
	default:
		// The agent wrote it: text, never a page of its own.
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Write(b)
	}
}
