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

// maxThemeNameLen bounds a theme's display name.
const maxThemeNameLen = 200

type startThemeInput struct {
	ThemeName       string   `json:"theme_name" jsonschema:"The theme's title, one line."`
	ThemePart       string   `json:"theme_directory_part" jsonschema:"A short folder name for the theme, e.g. ai_research. One folder name: no / or \\, no .., no leading dot."`
	Reason          string   `json:"reason" jsonschema:"Why you start this theme, free text."`
	ActivityContent []string `json:"activity_content,omitempty" jsonschema:"Optional: what you did to start the theme, one item per point."`
	parentInput
	ThemeboxFile string `json:"themebox_file,omitempty" jsonschema:"Optional: the name of the themebox/ file this theme comes from (e.g. next_theme.md); it is renamed to processed.<name>. Files starting with draft. are not ready: leave them."`

	parent *workspace.Theme // the parent pair, when given
}

func (in *startThemeInput) validate(c *checker) {
	c.oneLine(&in.ThemeName, 1, maxThemeNameLen, sayf("the theme's title, up to %d characters on one line", maxThemeNameLen))
	c.part(&in.ThemePart, sayf("a short folder name for the theme, e.g. ai_research (the folder becomes artifacts/<current heartbeat ID>_<theme_directory_part>/)"))
	c.text(&in.Reason, sayf("why you start this theme"))
	c.list(&in.ActivityContent, sayf("what you did to start the theme, one item per point"))
	in.parent = c.parent(&in.parentInput)
	c.describeAs(&in.ParentThemeStartID, parentThemeIDFull)
	c.describeAs(&in.ParentThemePart, parentThemePartFull)
	// The themebox file is looked at once the rest is good.
	if c.err() == nil {
		c.themebox(&in.ThemeboxFile)
	}
}

var startThemeTool = define(toolnames.StartTheme, "Start theme", writes, (*Tools).StartTheme,
	"Start a long-running theme: creates artifacts/<current heartbeat ID>_<theme_directory_part>/histories/ (or under the parent theme's subthemes/), writes the start record in artifacts/theme_histories/, "+
		"and marks the themebox file it came from as processed. The reply gives theme_start_id (this ID, the first 14 digits of the folder's name) and theme_directory_part: the pair every theme tool takes.")

// StartThemeResult is the reply of start_theme.
type StartThemeResult struct {
	ThemeStartID       string `json:"theme_start_id"`               // the theme's start ID (the current heartbeat ID); pass it as theme_start_id to create_activity_log and end_theme
	ThemeDirectoryPart string `json:"theme_directory_part"`         // the directory part; pass it as theme_directory_part
	ThemeFolder        string `json:"theme_folder"`                 // the theme folder, workspace-relative
	HistoriesFolder    string `json:"histories_folder"`             // where the theme's activity logs go
	StartRecord        string `json:"start_record"`                 // artifacts/theme_histories/<ID>_start_<part>.md
	ThemeboxProcessed  string `json:"themebox_processed,omitempty"` // the themebox file's new name, themebox/processed.<name>

	parent *workspace.Theme // a sub-theme's parent: its pair goes with every call too
}

func (r *StartThemeResult) heartbeatID() string { return r.ThemeStartID }

// Text is the reply in words.
func (r *StartThemeResult) Text(l lang.Lang) string {
	var b strings.Builder
	fmt.Fprintf(&b, tr(l, "Theme started: %s (theme_start_id %s, theme_directory_part %s).\n"), r.ThemeFolder, r.ThemeStartID, r.ThemeDirectoryPart)
	if p := r.parent; p != nil {
		fmt.Fprintf(&b, tr(l, "Start record: %s. Activity logs go to %s: pass theme_start_id %s and theme_directory_part %s, and the parent's pair too, parent_theme_start_id %s and parent_theme_directory_part %s, to create_activity_log and end_theme."),
			r.StartRecord, r.HistoriesFolder, r.ThemeStartID, r.ThemeDirectoryPart, p.StartID, p.Part)
	} else {
		fmt.Fprintf(&b, tr(l, "Start record: %s. Activity logs go to %s: pass theme_start_id %s and theme_directory_part %s to create_activity_log."), r.StartRecord, r.HistoriesFolder, r.ThemeStartID, r.ThemeDirectoryPart)
	}
	if r.ThemeboxProcessed != "" {
		fmt.Fprintf(&b, tr(l, "\nThemebox file marked processed: %s."), r.ThemeboxProcessed)
	}
	return b.String()
}

// StartTheme starts a theme named by the current heartbeat ID: it creates
// its folder with histories/, writes the start record and, when the theme
// came from the themebox, renames that file to processed.<name>.
func (t *Tools) StartTheme(in startThemeInput) (*StartThemeResult, error) {
	name, part, reason, content, parent, box := in.ThemeName, in.ThemePart, in.Reason, in.ActivityContent, in.parent, in.ThemeboxFile
	id, err := t.currentID()
	if err != nil {
		return nil, err
	}
	theme := workspace.Theme{StartID: id, Part: part, Parent: parent}
	if parent != nil {
		if err := t.existingDir(parent.Dir(), parentIDParam, sayf("check parent_theme_start_id and parent_theme_directory_part against the parent theme's folder under artifacts/, or leave both out for a top-level theme")); err != nil {
			return nil, err
		}
	}
	record := workspace.ThemeHistoriesDir + "/" + string(id) + "_start_" + part + ".md"
	already := func(what string) error {
		return badField(themePartParam, sayf("a theme %s was already started in this heartbeat (%s exists)", part, what), sayf("use that theme (theme_start_id %s), or choose another theme_directory_part", string(id)))
	}
	if !t.gone(theme.Dir()) {
		return nil, already(theme.Dir())
	}
	// themes.md: after a theme ends, the next starts in a later heartbeat,
	// never in the same one (a start right after an end is the churn
	// theme_pattern warns about).
	if ended := t.endedIn(id); ended != "" {
		// No parameter is wrong: the call comes too soon.
		return nil, badField("", sayf("a theme was ended in this heartbeat (%s)", ended),
			sayf("start the next theme in a later heartbeat: close this cycle with create_activity_log (activity_type theme_end) and wait for the next heartbeat"))
	}
	if _, err := t.WS.Resolve(theme.HistoriesDir()); err != nil {
		// Said before anything is written; the folder is made inside the
		// root below all the same, so a swap meanwhile cannot lead out.
		return nil, badField(themePartParam, sayf("the theme folder would lie outside the workspace (%s)", osReason(err)), sayf("make sure artifacts/ (and the parent theme folder) are real folders inside the workspace"))
	}
	// The record is claimed first: it is the one name that must be unique,
	// so two concurrent calls cannot both start the theme. It is taken back
	// when the folder cannot be made, so the call can be retried.
	var b strings.Builder
	// The record is written in the workspace's language, as its logs are;
	// recordName reads both.
	fmt.Fprintf(&b, t.tr("# Theme start: %s\n\n## Theme\n- name: %s\n- theme_start_id: %s\n- folder: %s\n"), name, name, id, theme.Dir())
	if parent != nil {
		fmt.Fprintf(&b, t.tr("- parent: %s\n"), parent.Dir())
	}
	if box != "" {
		fmt.Fprintf(&b, "- themebox_file: %s\n", workspace.ThemeboxDir+"/processed."+box)
	}
	fmt.Fprintf(&b, t.tr("\n## Reason\n%s\n"), escapeHeadings(reason))
	if len(content) > 0 {
		b.WriteString(t.tr("\n## Activity content\n"))
		for _, c := range content {
			fmt.Fprintf(&b, "- %s\n", workspace.OneLine(c))
		}
	}
	if err := t.WS.CreateNew(record, []byte(b.String()), time.Time{}); err != nil {
		if errors.Is(err, os.ErrExist) {
			return nil, already(record)
		}
		return nil, err
	}
	mkdirAll := t.mkdirAll
	if mkdirAll == nil {
		mkdirAll = t.WS.MkdirAll
	}
	if err := mkdirAll(theme.HistoriesDir()); err != nil {
		if rmErr := t.WS.Remove(record); rmErr != nil {
			return nil, fmt.Errorf("create %s: %w (and the start record %s could not be removed: %v; remove it before retrying)", theme.HistoriesDir(), err, record, rmErr)
		}
		return nil, fmt.Errorf("create %s: %w", theme.HistoriesDir(), err)
	}
	res := &StartThemeResult{ThemeStartID: string(id), ThemeDirectoryPart: part, ThemeFolder: theme.Dir(), HistoriesFolder: theme.HistoriesDir(), StartRecord: record, parent: parent}
	if box != "" {
		to := workspace.ThemeboxDir + "/processed." + box
		if err := t.WS.Rename(workspace.ThemeboxDir+"/"+box, to); err != nil {
			return nil, fmt.Errorf("theme started (%s) but the themebox file was not marked processed: %w", theme.Dir(), err)
		}
		res.ThemeboxProcessed = to
	}
	return res, nil
}

// themebox checks themebox_file: the name of a ready file in themebox/,
// without the folder.
func (c *checker) themebox(f *string) {
	if !c.text(f, sayf("")) {
		return
	}
	ws := c.t.WS
	s := strings.TrimPrefix(strings.ReplaceAll(*f, `\`, "/"), workspace.ThemeboxDir+"/")
	name, err := workspace.CheckPart(s)
	if err != nil {
		c.report(f, nameProblem(err), sayf("pass only the file's name inside themebox/, e.g. next_theme.md"))
		return
	}
	switch {
	case strings.HasPrefix(name, "processed."):
		c.report(f, sayf("%q is already processed", name), sayf("pass an unprocessed file of themebox/, or leave themebox_file out"))
		return
	case strings.HasPrefix(name, "draft."):
		c.report(f, sayf("%q is a draft the user has not finished", name), sayf("pass a file without the draft. prefix, or leave themebox_file out"))
		return
	}
	fi, err := ws.Lstat(workspace.ThemeboxDir + "/" + name)
	if errors.Is(err, workspace.ErrOutside) {
		c.report(f, sayf("themebox/%s leads outside the workspace", name), sayf("pass a regular file inside themebox/"))
		return
	}
	if err != nil || !fi.Mode().IsRegular() {
		c.report(f, sayf("themebox/%s does not exist or is not a regular file", name), sayf("pass the name of a file listed in themebox/, or leave themebox_file out"))
		return
	}
	if _, err := ws.Lstat(workspace.ThemeboxDir + "/processed." + name); !errors.Is(err, os.ErrNotExist) {
		c.report(f, sayf("themebox/processed.%s already exists", name), sayf("rename one of the two files, or leave themebox_file out"))
		return
	}
	*f = name
}

// escapeHeadings indents lines that start with "#", so free text can never
// open a new section of a record.
func escapeHeadings(s string) string {
	lines := strings.Split(strings.ReplaceAll(s, "\r\n", "\n"), "\n")
	for i, l := range lines {
		if strings.HasPrefix(strings.TrimSpace(l), "#") {
			lines[i] = " " + l
		}
	}
	return strings.Join(lines, "\n")
}

// endedIn is the end record of a theme ended in heartbeat id, "" if none.
func (t *Tools) endedIn(id workspace.ID) string {
	ents, err := t.WS.ReadDir(workspace.ThemeHistoriesDir)
	if err != nil {
		return ""
	}
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), string(id)+"_end_") && strings.HasSuffix(e.Name(), ".md") {
			return workspace.ThemeHistoriesDir + "/" + e.Name()
		}
	}
	return ""
}
