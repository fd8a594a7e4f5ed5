package tools

import (
	"errors"
	"io/fs"

	"github.com/ai-heart/ai-heart/internal/workspace"
)

// themeInput names a theme; parentInput its parent, for a sub-theme.
type themeInput struct {
	ThemeStartID string `json:"theme_start_id" jsonschema:"The theme's start ID."`
	ThemePart    string `json:"theme_directory_part" jsonschema:"The theme's directory part."`
}

type parentInput struct {
	ParentThemeStartID string `json:"parent_theme_start_id,omitempty" jsonschema:"Sub-theme only: the parent theme's start ID."`
	ParentThemePart    string `json:"parent_theme_directory_part,omitempty" jsonschema:"Sub-theme only: the parent theme's directory part."`
}

// The theme pair and the parent pair are said in full once, where a
// theme is made (start_theme); the tools that name a theme say them short.
const (
	parentThemeIDFull   = "Only for a sub-theme (artifacts/<parent>/subthemes/<theme>/): the parent theme's 14-digit start ID. Give it together with parent_theme_directory_part, or leave both out."
	parentThemePartFull = "Only for a sub-theme: the parent theme's directory part. Give it together with parent_theme_start_id, or leave both out."
)

// The hints of the theme parameters, for the fixes of bad calls: each
// names the value (a noun), which the fix puts inside its one instruction.
var (
	themeIDHint          = sayf("the 14-digit heartbeat ID the theme was started with, the first part of its folder name artifacts/<theme_start_id>_<theme_directory_part>/")
	themePartHint        = sayf("the theme folder's name after the ID and underscore, e.g. ai_research for artifacts/20250101120000_ai_research/")
	parentThemeIDHint    = sayf("the parent theme's 14-digit start ID (only for a sub-theme: give it together with parent_theme_directory_part, or leave both out)")
	parentThemePartHint  = sayf("the parent theme's directory part (only for a sub-theme: give it together with parent_theme_start_id, or leave both out)")
	themeNotFoundFixHint = sayf("check theme_start_id and theme_directory_part against the folder name under artifacts/ (and the parent pair for a sub-theme), or call start_theme first")
)

// parent checks the optional parent pair, both or neither (a pair member
// sent as an empty string counts as left out), and returns the parent.
func (c *checker) parent(in *parentInput) *workspace.Theme {
	if c.describe {
		c.id(&in.ParentThemeStartID, parentThemeIDHint)
		c.part(&in.ParentThemePart, parentThemePartHint)
		return nil
	}
	hasID := c.of(&in.ParentThemeStartID).given() && !c.trimmedEmpty(&in.ParentThemeStartID)
	hasPart := c.of(&in.ParentThemePart).given() && !c.trimmedEmpty(&in.ParentThemePart)
	both := sayf("give both parent_theme_start_id and parent_theme_directory_part for a sub-theme, or neither for a top-level theme")
	switch {
	case !hasID && !hasPart:
		return nil
	case hasID && !hasPart:
		c.report(&in.ParentThemePart, sayf("missing while parent_theme_start_id is given"), both)
		return nil
	case !hasID && hasPart:
		c.report(&in.ParentThemeStartID, sayf("missing while parent_theme_directory_part is given"), both)
		return nil
	}
	id, ok := c.id(&in.ParentThemeStartID, parentThemeIDHint)
	if !ok || !c.part(&in.ParentThemePart, parentThemePartHint) {
		return nil
	}
	return &workspace.Theme{StartID: id, Part: in.ParentThemePart}
}

// theme checks theme_start_id, theme_directory_part and the parent pair,
// and returns the theme they name.
func (c *checker) theme(th *themeInput, pa *parentInput) workspace.Theme {
	id, _ := c.id(&th.ThemeStartID, themeIDHint)
	c.part(&th.ThemePart, themePartHint)
	return workspace.Theme{StartID: id, Part: th.ThemePart, Parent: c.parent(pa)}
}

// paramName is the parameter name of field, a field of the struct *in, for
// a problem found after the call was validated.
func paramName(in, field any) string { return newChecker(nil, in).of(field).name }

// The parameters a problem with a theme's folder is blamed on, named by
// their fields' tags.
var (
	themeIDParam   = func() string { var in themeInput; return paramName(&in, &in.ThemeStartID) }()
	themePartParam = func() string { var in themeInput; return paramName(&in, &in.ThemePart) }()
	parentIDParam  = func() string { var in parentInput; return paramName(&in, &in.ParentThemeStartID) }()
)

// existingDir checks that the workspace-relative folder rel exists and stays
// inside the workspace after following symlinks. field names the parameter
// to blame.
func (t *Tools) existingDir(rel, field string, fix say) error {
	fi, err := t.WS.Stat(rel)
	if errors.Is(err, workspace.ErrOutside) {
		return badField(field, sayf("the folder %s leads outside the workspace (a symlink pointing elsewhere); mcp-heart never writes through it", rel), sayf("use a theme whose folder is inside the workspace, or replace the symlink with a real folder"))
	}
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if err != nil || !fi.IsDir() {
		return badField(field, sayf("the folder %s does not exist", rel), fix)
	}
	return nil
}

// checkTheme checks that a theme's folder and its histories/ exist inside
// the workspace; the parent first, so the error names the right pair.
func (t *Tools) checkTheme(th workspace.Theme) error {
	if th.Parent != nil {
		if err := t.existingDir(th.Parent.Dir(), parentIDParam, sayf("check parent_theme_start_id and parent_theme_directory_part against the parent theme's folder under artifacts/, or leave both out for a top-level theme")); err != nil {
			return err
		}
	}
	if err := t.existingDir(th.Dir(), themeIDParam, sayf("%s%s", themeNotFoundFixHint, t.suggestTheme(th))); err != nil {
		return err
	}
	return t.existingDir(th.HistoriesDir(), themeIDParam, sayf("the theme folder exists but has no histories/ folder; create %s or start the theme with start_theme", th.HistoriesDir()))
}

// suggestTheme names existing top-level themes with the same directory part,
// the usual mistake being a wrong start ID. It lists artifacts/ only (one
// entry per theme), never the histories.
func (t *Tools) suggestTheme(th workspace.Theme) say {
	if th.Parent != nil {
		return say{}
	}
	ents, err := workspace.ReadAgentDir(t.WS.Path(workspace.ArtifactsDir))
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
