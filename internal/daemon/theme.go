package daemon

import (
	"bufio"
	"bytes"
	"path"
	"strings"

	"github.com/ai-heart/ai-heart/internal/state"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// maxThemeHead bounds what is read of a theme record for its name: the
// agent writes these files.
const maxThemeHead = 4 << 10

// themeState is the theme the agent is on, from the newest theme record
// (artifacts/theme_histories/<ID>_start_<part>.md, or _end_ once ended):
// the page and status show it instead of guessing from a log's folder.
// The start record's name is read once per record. a.mu is held.
func (a *agent) themeState() *state.Theme {
	recs := a.snap.ThemeRecords
	if len(recs) == 0 {
		return nil
	}
	rec := recs[len(recs)-1]
	base := strings.TrimSuffix(path.Base(rec), ".md")
	id, ok := workspace.IDPrefix(base)
	if !ok || len(base) <= workspace.IDLen {
		return nil
	}
	rest := base[workspace.IDLen+1:]
	th := &state.Theme{Record: rec}
	switch {
	case strings.HasPrefix(rest, "start_"):
		th.StartID, th.Dir = id, strings.TrimPrefix(rest, "start_")
		if a.themeName.record != rec {
			a.themeName.record, a.themeName.name = rec, themeName(a.ws, rec)
		}
		th.Name = a.themeName.name
	case strings.HasPrefix(rest, "end_"):
		th.Dir, th.Ended = strings.TrimPrefix(rest, "end_"), true
		if sid, ok := workspace.IDPrefix(th.Dir); ok { // an end record that names <start ID>_<part>
			th.StartID, th.Dir = sid, strings.TrimPrefix(th.Dir, string(sid)+"_")
		}
	default:
		return nil
	}
	return th
}

// themeName reads a start record's heading ("# Theme start: X", or the
// Japanese and old ones) through the workspace's root; "" when there is
// none.
func themeName(ws *workspace.Workspace, rec string) string {
	b, err := ws.ReadFile(rec, maxThemeHead)
	if err != nil {
		return ""
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		for _, p := range []string{"# Theme start:", "# テーマ開始:", "# サブテーマ開始:"} {
			if name, ok := strings.CutPrefix(sc.Text(), p); ok {
				return workspace.OneLine(strings.TrimSpace(name))
			}
		}
	}
	return ""
}
