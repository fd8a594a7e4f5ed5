package tools

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/ai-heart/ai-heart/internal/lang"
	"github.com/ai-heart/ai-heart/internal/tools/toolnames"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

type checkThemeStatusInput struct {
	themeInput
	parentInput
	IncludeSubthemes bool `json:"include_subthemes,omitempty" jsonschema:"Whether to report the sub-themes too; true when left out."`

	theme workspace.Theme
}

func (in *checkThemeStatusInput) validate(c *checker) {
	in.theme = c.theme(&in.themeInput, &in.parentInput)
	if !c.boolean(&in.IncludeSubthemes, sayf("pass include_subthemes as a boolean, or leave it out (true)")) {
		in.IncludeSubthemes = true
	}
}

var statusTool = define(toolnames.CheckThemeStatus, "Check theme status", reads, (*Tools).CheckThemeStatus,
	"Read-only: a theme's start record and name, whether it has ended, its activity log count and newest log, and its sub-themes (the same for each).")

// ThemeInfo is one theme as check_theme_status reports it.
type ThemeInfo struct {
	ThemeStartID       string `json:"theme_start_id"`         // the theme's start ID
	ThemeDirectoryPart string `json:"theme_directory_part"`   // the theme's directory part
	ThemeName          string `json:"theme_name,omitempty"`   // the name in its start record
	Folder             string `json:"folder"`                 // the theme folder, workspace-relative
	StartRecord        string `json:"start_record,omitempty"` // artifacts/theme_histories/<ID>_start_<part>.md, when there is one
	Ended              bool   `json:"ended"`                  // whether an end record exists (end_theme)
	EndRecord          string `json:"end_record,omitempty"`   // the end record, when ended
	LogCount           int    `json:"log_count"`              // activity logs in the theme's histories/
	LatestLog          string `json:"latest_log,omitempty"`   // the newest activity log by name (IDs sort by time)
}

// ThemeStatus is the reply of check_theme_status: the theme and, when asked
// for, its sub-themes.
type ThemeStatus struct {
	ThemeInfo
	Subthemes []ThemeInfo `json:"subthemes"` // the sub-themes, oldest first (empty when not asked for)
}

func (r *ThemeStatus) heartbeatID() string { return "" }

// Text is the reply in words.
func (r *ThemeStatus) Text(l lang.Lang) string {
	var b strings.Builder
	r.ThemeInfo.write(&b, l, "")
	for i := range r.Subthemes {
		r.Subthemes[i].write(&b, l, tr(l, "  sub-theme "))
	}
	return strings.TrimRight(b.String(), "\n")
}

func (r *ThemeInfo) write(b *strings.Builder, l lang.Lang, indent string) {
	state := tr(l, "active")
	if r.Ended {
		state = fmt.Sprintf(tr(l, "ended (%s)"), r.EndRecord)
	}
	name := r.ThemeName
	if name == "" {
		name = tr(l, "(no start record)")
	}
	fmt.Fprintf(b, tr(l, "%s%s: %s, %s; activity logs: %d"), indent, r.Folder, name, state, r.LogCount)
	if r.LatestLog != "" {
		fmt.Fprintf(b, tr(l, ", latest %s"), r.LatestLog)
	}
	if r.StartRecord != "" {
		fmt.Fprintf(b, tr(l, "; start record %s"), r.StartRecord)
	}
	b.WriteString(tr(l, ".\n"))
}

// CheckThemeStatus reports a theme: its start record and name, whether it
// has ended, its log count and newest log, and its sub-themes. It lists the
// theme's own folders and the theme records, never the whole history.
func (t *Tools) CheckThemeStatus(in checkThemeStatusInput) (*ThemeStatus, error) {
	theme, withSubs := in.theme, in.IncludeSubthemes
	if err := t.existingDir(theme.Dir(), themeIDParam, sayf("%s%s", themeNotFoundFixHint, t.suggestTheme(theme))); err != nil {
		return nil, err
	}
	records, err := t.themeRecords()
	if err != nil {
		return nil, err
	}
	info, err := t.themeStatus(theme, records)
	if err != nil {
		return nil, err
	}
	st := &ThemeStatus{ThemeInfo: *info, Subthemes: []ThemeInfo{}}
	if withSubs {
		subs, err := t.WS.ReadDir(theme.Dir() + "/" + workspace.SubthemesDir)
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil, err
		}
		for _, e := range subs {
			id, part, ok := strings.Cut(e.Name(), "_")
			if !ok || !e.IsDir() {
				continue
			}
			if _, err := workspace.ParseID(id); err != nil {
				continue
			}
			parent := theme
			sub := workspace.Theme{StartID: workspace.ID(id), Part: part, Parent: &parent}
			s, err := t.themeStatus(sub, records)
			if err != nil {
				return nil, err
			}
			st.Subthemes = append(st.Subthemes, *s)
		}
		sort.Slice(st.Subthemes, func(i, j int) bool { return st.Subthemes[i].ThemeStartID < st.Subthemes[j].ThemeStartID })
	}
	return st, nil
}

// themeRecords lists artifacts/theme_histories once.
func (t *Tools) themeRecords() (map[string]bool, error) {
	ents, err := t.WS.ReadDir(workspace.ThemeHistoriesDir)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	out := make(map[string]bool, len(ents))
	for _, e := range ents {
		out[e.Name()] = true
	}
	return out, nil
}

func (t *Tools) themeStatus(th workspace.Theme, records map[string]bool) (*ThemeInfo, error) {
	st := &ThemeInfo{ThemeStartID: string(th.StartID), ThemeDirectoryPart: th.Part, Folder: th.Dir()}
	start := string(th.StartID) + "_start_" + th.Part + ".md"
	if records[start] {
		st.StartRecord = workspace.ThemeHistoriesDir + "/" + start
		st.ThemeName = t.recordName(st.StartRecord)
	}
	var ends []string
	for n := range records {
		if strings.HasSuffix(n, "_end_"+th.Part+".md") && n > string(th.StartID) {
			ends = append(ends, n)
		}
	}
	// An end record is named with the ID it was written in, so the part
	// alone can match another theme's: one that names this start ID wins;
	// an old record without that line counts by its part.
	sort.Strings(ends)
	for i := len(ends) - 1; i >= 0; i-- {
		rel := workspace.ThemeHistoriesDir + "/" + ends[i]
		b, err := t.WS.ReadFile(rel, workspace.MaxSmallFile)
		if err != nil {
			continue
		}
		body := string(b)
		if strings.Contains(body, "theme_start_id: "+string(th.StartID)) || !strings.Contains(body, "theme_start_id:") {
			st.Ended, st.EndRecord = true, rel
			break
		}
	}
	logs, err := t.WS.ReadDir(th.HistoriesDir())
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	for _, e := range logs {
		if workspace.IsLogName(e.Name()) {
			st.LogCount++
			if rel := th.HistoriesDir() + "/" + e.Name(); rel > st.LatestLog {
				st.LatestLog = rel
			}
		}
	}
	return st, nil
}

// maxRecordHead bounds what is read of a start record for its heading.
const maxRecordHead = 4 << 10

// recordName reads the theme name from a start record's first heading
// ("# Theme start: X", or the old "# テーマ開始: X").
func (t *Tools) recordName(rel string) string {
	b, err := t.WS.ReadFile(rel, maxRecordHead)
	if err != nil {
		return ""
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for i := 0; sc.Scan() && i < 20; i++ {
		l := strings.TrimSpace(sc.Text())
		for _, p := range []string{"# Theme start:", "# テーマ開始:", "# サブテーマ開始:"} {
			if strings.HasPrefix(l, p) {
				return strings.TrimSpace(strings.TrimPrefix(l, p))
			}
		}
	}
	return ""
}
