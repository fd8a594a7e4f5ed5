package tools

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/ai-heart/ai-heart/internal/lang"
	"github.com/ai-heart/ai-heart/internal/tools/toolnames"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

type endThemeInput struct {
	themeInput
	Reason       string   `json:"reason" jsonschema:"Why the theme ends now, free text."`
	Achievements []string `json:"achievements" jsonschema:"What the theme achieved, one item per point."`
	parentInput

	theme workspace.Theme
}

func (in *endThemeInput) validate(c *checker) {
	in.theme = c.theme(&in.themeInput, &in.parentInput)
	c.text(&in.Reason, sayf("why the theme ends now"))
	c.list(&in.Achievements, sayf("what the theme achieved, one item per point"))
}

var endThemeTool = define(toolnames.EndTheme, "End theme", writes, (*Tools).EndTheme,
	"End a theme: writes its end record artifacts/theme_histories/<current heartbeat ID>_end_<theme_directory_part>.md. The theme folder must exist; it is kept as it is.")

// EndThemeResult is the reply of end_theme.
type EndThemeResult struct {
	HeartbeatID string `json:"heartbeat_id"` // the current heartbeat ID the end record is named by
	ThemeFolder string `json:"theme_folder"` // the theme that ended
	EndRecord   string `json:"end_record"`   // artifacts/theme_histories/<ID>_end_<part>.md
}

func (r *EndThemeResult) heartbeatID() string { return r.HeartbeatID }

// Text is the reply in words.
func (r *EndThemeResult) Text(l lang.Lang) string {
	return fmt.Sprintf(tr(l, "Theme ended: %s. End record: %s. Record the closing cycle with create_activity_log (activity_type theme_end) if you have not yet."), r.ThemeFolder, r.EndRecord)
}

// EndTheme writes the end record of an existing theme,
// artifacts/theme_histories/<current ID>_end_<part>.md. The theme folder is
// left as it is.
func (t *Tools) EndTheme(in endThemeInput) (*EndThemeResult, error) {
	theme, reason, achievements := in.theme, in.Reason, in.Achievements
	id, err := t.currentID()
	if err != nil {
		return nil, err
	}
	if theme.Parent != nil {
		if err := t.existingDir(theme.Parent.Dir(), parentIDParam, sayf("check parent_theme_start_id and parent_theme_directory_part against the parent theme's folder, or leave both out for a top-level theme")); err != nil {
			return nil, err
		}
	}
	if err := t.existingDir(theme.Dir(), themeIDParam, sayf("%s%s", themeNotFoundFixHint, t.suggestTheme(theme))); err != nil {
		return nil, err
	}
	record := workspace.ThemeHistoriesDir + "/" + string(id) + "_end_" + theme.Part + ".md"
	var b strings.Builder
	fmt.Fprintf(&b, t.tr("# Theme end: %s\n\n## Theme\n- theme_start_id: %s\n- folder: %s\n- ended_in: %s\n"), theme.Name(), theme.StartID, theme.Dir(), id)
	fmt.Fprintf(&b, t.tr("\n## Reason\n%s\n\n## Achievements\n"), escapeHeadings(reason))
	for _, x := range achievements {
		fmt.Fprintf(&b, "- %s\n", workspace.OneLine(x))
	}
	if err := t.WS.CreateNew(record, []byte(b.String()), time.Time{}); err != nil {
		if errors.Is(err, os.ErrExist) {
			return nil, badField(themePartParam, sayf("an end record for %s already exists in this heartbeat (%s)", theme.Part, record), sayf("the theme has already been ended; nothing more to do"))
		}
		return nil, err
	}
	return &EndThemeResult{HeartbeatID: string(id), ThemeFolder: theme.Dir(), EndRecord: record}, nil
}
