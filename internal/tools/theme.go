package tools

import (
	"errors"
	"os"
	"strings"

	"github.com/ai-heart/ai-heart/internal/workspace"
)

// Parameter names shared by the tools that name a theme.
const (
	pThemeStartID       = "theme_start_id"
	pThemePart          = "theme_directory_part"
	pParentThemeStartID = "parent_theme_start_id"
	pParentThemePart    = "parent_theme_directory_part"
)

// themeInput names a theme; parentInput its parent, for a sub-theme.
type themeInput struct {
	ThemeStartID string `json:"theme_start_id" pattern:"^[0-9]{14}$" jsonschema:"The theme's start ID: 14 digits YYYYMMDDHHMMSS, the first part of the theme folder name artifacts/<theme_start_id>_<theme_directory_part>/ (start_theme returns it)."`
	ThemePart    string `json:"theme_directory_part" maxLength:"$maxPartLen" jsonschema:"The theme folder's name after the ID and underscore, e.g. ai_research for artifacts/20250101120000_ai_research/. One folder name: no / or \\, no .., no leading dot."`
}

type parentInput struct {
	ParentThemeStartID string `json:"parent_theme_start_id,omitempty" pattern:"^[0-9]{14}$" jsonschema:"Only for a sub-theme (artifacts/<parent>/subthemes/<theme>/): the parent theme's 14-digit start ID. Give it together with parent_theme_directory_part, or leave both out."`
	ParentThemePart    string `json:"parent_theme_directory_part,omitempty" maxLength:"$maxPartLen" jsonschema:"Only for a sub-theme: the parent theme's directory part. Give it together with parent_theme_start_id, or leave both out."`
}

// The hints of the theme parameters, for the fixes of bad calls.
var (
	themeIDHint          = sayf("the 14-digit heartbeat ID the theme was started with, the first part of its folder name artifacts/<theme_start_id>_<theme_directory_part>/")
	themePartHint        = sayf("the theme folder's name after the ID and underscore, e.g. ai_research for artifacts/20250101120000_ai_research/")
	parentThemeIDHint    = sayf("only for a sub-theme: the parent theme's 14-digit start ID; give it together with parent_theme_directory_part, or leave both out")
	parentThemePartHint  = sayf("only for a sub-theme: the parent theme's directory part; give it together with parent_theme_start_id, or leave both out")
	themeNotFoundFixHint = sayf("check theme_start_id and theme_directory_part against the folder name under artifacts/ (and the parent pair for a sub-theme), or call start_theme first")
)

// idArg reads a heartbeat-ID parameter.
func (a Args) idArg(name string, required bool, hint say) (workspace.ID, error) {
	s, err := a.text(name, required, hint)
	if err != nil || s == "" {
		return "", err
	}
	id, err := workspace.ParseID(s)
	if err != nil {
		return "", badField(name, sayf("%q is not a heartbeat ID (14 digits YYYYMMDDHHMMSS)", clip(s, 40)), sayf("pass %s", hint))
	}
	return workspace.ID(id), nil
}

// partArg reads a directory-part parameter.
func (a Args) partArg(name string, hint say) (string, error) {
	s, err := a.text(name, true, hint)
	if err != nil {
		return "", err
	}
	p, err := workspace.CheckPart(s)
	if err != nil {
		return "", badField(name, partProblem(err), sayf("use one folder name without / \\ : * ? \" < > |, control characters, a leading dot or ..; %s", hint))
	}
	return p, nil
}

// parentArg reads the optional parent pair: both or neither.
func (a Args) parentArg() (*workspace.Theme, error) {
	hasID, hasPart := a.present(pParentThemeStartID), a.present(pParentThemePart)
	if s, ok := a[pParentThemeStartID].(string); ok && strings.TrimSpace(s) == "" {
		hasID = false
	}
	if s, ok := a[pParentThemePart].(string); ok && strings.TrimSpace(s) == "" {
		hasPart = false
	}
	switch {
	case !hasID && !hasPart:
		return nil, nil
	case hasID && !hasPart:
		return nil, badField(pParentThemePart, sayf("missing while parent_theme_start_id is given"), sayf("give both parent_theme_start_id and parent_theme_directory_part for a sub-theme, or neither for a top-level theme"))
	case !hasID && hasPart:
		return nil, badField(pParentThemeStartID, sayf("missing while parent_theme_directory_part is given"), sayf("give both parent_theme_start_id and parent_theme_directory_part for a sub-theme, or neither for a top-level theme"))
	}
	id, err := a.idArg(pParentThemeStartID, true, parentThemeIDHint)
	if err != nil {
		return nil, err
	}
	part, err := a.partArg(pParentThemePart, parentThemePartHint)
	if err != nil {
		return nil, err
	}
	return &workspace.Theme{StartID: id, Part: part}, nil
}

// themeArg reads theme_start_id, theme_directory_part and the parent pair.
func (a Args) themeArg() (workspace.Theme, error) {
	var bad problems
	id, err := a.idArg(pThemeStartID, true, themeIDHint)
	bad.add(err)
	part, err := a.partArg(pThemePart, themePartHint)
	bad.add(err)
	parent, err := a.parentArg()
	bad.add(err)
	if err := bad.err(); err != nil {
		return workspace.Theme{}, err
	}
	return workspace.Theme{StartID: id, Part: part, Parent: parent}, nil
}

// existingDir checks that the workspace-relative folder rel exists and stays
// inside the workspace after following symlinks. field names the parameter
// to blame.
func (t *Tools) existingDir(rel, field string, fix say) error {
	abs, err := t.WS.Resolve(rel)
	if errors.Is(err, workspace.ErrOutside) {
		return badField(field, sayf("the folder %s leads outside the workspace (a symlink pointing elsewhere); mcp-heart never writes through it", rel), sayf("use a theme whose folder is inside the workspace, or replace the symlink with a real folder"))
	}
	if err != nil {
		return err
	}
	fi, err := os.Stat(abs)
	if err != nil || !fi.IsDir() {
		return badField(field, sayf("the folder %s does not exist", rel), fix)
	}
	return nil
}

// checkTheme checks that a theme's folder and its histories/ exist inside
// the workspace; the parent first, so the error names the right pair.
func (t *Tools) checkTheme(th workspace.Theme) error {
	if th.Parent != nil {
		if err := t.existingDir(th.Parent.Dir(), pParentThemeStartID, sayf("check parent_theme_start_id and parent_theme_directory_part against the parent theme's folder under artifacts/, or leave both out for a top-level theme")); err != nil {
			return err
		}
	}
	if err := t.existingDir(th.Dir(), pThemeStartID, sayf("%s%s", themeNotFoundFixHint, t.suggestTheme(th))); err != nil {
		return err
	}
	return t.existingDir(th.HistoriesDir(), pThemeStartID, sayf("the theme folder exists but has no histories/ folder; create %s or start the theme with start_theme", th.HistoriesDir()))
}

// suggestTheme names existing top-level themes with the same directory part,
// the usual mistake being a wrong start ID. It lists artifacts/ only (one
// entry per theme), never the histories.
func (t *Tools) suggestTheme(th workspace.Theme) say {
	if th.Parent != nil {
		return say{}
	}
	ents, err := os.ReadDir(t.WS.Path(workspace.ArtifactsDir))
	if err != nil {
		return say{}
	}
	var found []string
	for _, e := range ents {
		id, ok := workspace.IDPrefix(e.Name())
		if ok && e.Name() == string(id)+"_"+th.Part && len(found) < 5 {
			found = append(found, string(id))
		}
	}
	if len(found) == 0 {
		return say{}
	}
	return sayf(" (themes named %s exist with theme_start_id %s)", th.Part, names(found))
}
