package tools

import (
	"fmt"
	"io/fs"
	"sort"
	"strings"
	"time"

	"github.com/ai-heart/ai-heart/internal/lang"
	"github.com/ai-heart/ai-heart/internal/tools/toolnames"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// Bounds of get_latest_activity_log's num_logs and list_theme_artifacts'
// limit.
const (
	maxNumLogs       = 10
	defaultListLimit = 50
	maxListLimit     = 200
)

type getLatestActivityLogInput struct {
	themeInput
	parentInput
	NumLogs int `json:"num_logs,omitempty" jsonschema:"How many of the newest logs to return, 1 to %d; 1 when left out."`

	theme workspace.Theme
}

func (in *getLatestActivityLogInput) validate(c *checker) {
	in.theme = c.theme(&in.themeInput, &in.parentInput)
	hint := sayf("pass num_logs as a whole number from 1 to %d, or leave it out (1)", maxNumLogs)
	given, inRange := c.whole(&in.NumLogs, 1, maxNumLogs, hint)
	c.says(&in.NumLogs, maxNumLogs)
	switch {
	case !given:
		in.NumLogs = 1
	case c.of(&in.NumLogs).ok && !inRange:
		c.report(&in.NumLogs, sayf("%d is outside 1..%d", in.NumLogs, maxNumLogs), hint)
	}
}

var latestLogTool = define(toolnames.GetLatestActivityLog, "Get latest activity log", reads, (*Tools).GetLatestActivityLog,
	"Read-only: the text of a theme's newest activity logs, newest first, to pick up where you left off.")

// LogEntry is one activity log with its text.
type LogEntry struct {
	Path    string `json:"path"`    // the activity log, workspace-relative
	Content string `json:"content"` // its text (cut at 64 KiB)
}

// LatestLogsResult is the reply of get_latest_activity_log.
type LatestLogsResult struct {
	Logs  []LogEntry `json:"logs"`  // the newest activity logs of the theme, newest first
	Total int        `json:"total"` // how many activity logs the theme has
}

func (r *LatestLogsResult) heartbeatID() string { return "" }

// Text is the reply in words.
func (r *LatestLogsResult) Text(l lang.Lang) string {
	if len(r.Logs) == 0 {
		return tr(l, "This theme has no activity log yet.")
	}
	var b strings.Builder
	fmt.Fprintf(&b, tr(l, "Activity logs, newest first (%d of %d):\n"), len(r.Logs), r.Total)
	for _, e := range r.Logs {
		fmt.Fprintf(&b, "\n%s:\n---\n%s\n---\n", e.Path, e.Content)
	}
	return strings.TrimRight(b.String(), "\n")
}

// GetLatestActivityLog returns the text of a theme's newest activity logs
// (num_logs, 1 to 10), so the agent can pick up where it left off.
func (t *Tools) GetLatestActivityLog(in getLatestActivityLogInput) (*LatestLogsResult, error) {
	theme, n := in.theme, in.NumLogs
	if err := t.checkTheme(theme); err != nil {
		return nil, err
	}
	ents, err := t.WS.ReadDir(theme.HistoriesDir())
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range ents {
		if workspace.IsLogName(e.Name()) && e.Type().IsRegular() {
			names = append(names, e.Name())
		}
	}
	sort.Sort(sort.Reverse(sort.StringSlice(names))) // IDs sort by time
	res := &LatestLogsResult{Logs: []LogEntry{}, Total: len(names)}
	for _, name := range names[:min(n, len(names))] {
		rel := theme.HistoriesDir() + "/" + name
		content, _, err := t.readItem(rel)
		if err != nil {
			return nil, err
		}
		res.Logs = append(res.Logs, LogEntry{Path: rel, Content: content})
	}
	return res, nil
}

type listThemeArtifactsInput struct {
	themeInput
	parentInput
	IncludeSubdirectories bool   `json:"include_subdirectories,omitempty" jsonschema:"Whether to list the theme folder's own sub-folders too; false when left out."`
	Limit                 int    `json:"limit,omitempty" jsonschema:"Files per page, 1 to %d; %d when left out."`
	Cursor                string `json:"cursor,omitempty" jsonschema:"The next_cursor of the previous page, to get the page after it; leave it out for the first page."`

	theme workspace.Theme
}

func (in *listThemeArtifactsInput) validate(c *checker) {
	in.theme = c.theme(&in.themeInput, &in.parentInput)
	c.boolean(&in.IncludeSubdirectories, sayf("pass include_subdirectories as a boolean, or leave it out (false)"))
	hint := sayf("pass limit as a whole number from 1 to %d, or leave it out (%d)", maxListLimit, defaultListLimit)
	given, inRange := c.whole(&in.Limit, 1, maxListLimit, hint)
	c.says(&in.Limit, maxListLimit, defaultListLimit)
	switch {
	case !given:
		in.Limit = defaultListLimit
	case c.of(&in.Limit).ok && !inRange:
		c.report(&in.Limit, sayf("%d is outside 1..%d", in.Limit, maxListLimit), hint)
	}
	// The cursor has one fix, where its source says its type: "pass it as
	// a string" and "pass the next_cursor" would be one instruction twice.
	if p := c.of(&in.Cursor); !c.describe && p.given() && !p.ok {
		c.report(&in.Cursor, sayf("must be a string, got %s", jsonKind(p.raw)), sayf("pass the previous page's next_cursor as cursor, unchanged, or leave it out for the first page"))
		return
	}
	c.text(&in.Cursor, sayf("the next_cursor of the previous page"))
}

var artifactsTool = define(toolnames.ListThemeArtifacts, "List theme artifacts", reads, (*Tools).ListThemeArtifacts,
	"Read-only: the files of a theme folder by path, with sizes and times; histories/ and sub-theme folders are left out. A page holds up to limit files (%d when left out); pass next_cursor as cursor for the next page.",
	func(*Tools) any { return defaultListLimit })

// ArtifactEntry is one file of a theme folder.
type ArtifactEntry struct {
	Path     string `json:"path"`     // the file, workspace-relative
	Size     int64  `json:"size"`     // its size in bytes
	Modified string `json:"modified"` // its modification time, RFC 3339
}

// ArtifactsResult is the reply of list_theme_artifacts.
type ArtifactsResult struct {
	Files      []ArtifactEntry `json:"files"`                 // files of the theme folder, by path, histories excluded
	NextCursor string          `json:"next_cursor,omitempty"` // pass it as cursor for the next page; absent on the last page
}

func (r *ArtifactsResult) heartbeatID() string { return "" }

// Text is the reply in words.
func (r *ArtifactsResult) Text(l lang.Lang) string {
	if len(r.Files) == 0 {
		return tr(l, "No artifacts (beyond the activity logs) on this page.")
	}
	var b strings.Builder
	for _, f := range r.Files {
		// The one local form the other replies use, not RFC 3339 (the
		// structured content keeps that).
		mod := f.Modified
		if t, err := time.Parse(time.RFC3339, f.Modified); err == nil {
			mod = t.Format(time.DateTime)
		}
		fmt.Fprintf(&b, tr(l, "%s (%d bytes, modified %s)\n"), f.Path, f.Size, mod)
	}
	if r.NextCursor != "" {
		fmt.Fprintf(&b, tr(l, "More follow: call again with cursor %q."), r.NextCursor)
	}
	return strings.TrimRight(b.String(), "\n")
}

// ListThemeArtifacts lists a theme folder's files (histories/ excluded, and
// sub-themes' own folders: they have their own listing), a page at a time.
func (t *Tools) ListThemeArtifacts(in listThemeArtifactsInput) (*ArtifactsResult, error) {
	theme, sub, limit, cursor := in.theme, in.IncludeSubdirectories, in.Limit, in.Cursor
	if err := t.existingDir(theme.Dir(), themeIDParam, sayf("%s%s", themeNotFoundFixHint, t.suggestTheme(theme))); err != nil {
		return nil, err
	}
	// Walk order is by name within each folder, not by whole path, so the
	// page is cut from the sorted list: the cursor is a path.
	var all []ArtifactEntry
	base := theme.Dir()
	err := t.WS.WalkDir(base, func(full string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // an unreadable folder is skipped, not fatal
		}
		rel := strings.TrimPrefix(strings.TrimPrefix(full, base), "/")
		if d.IsDir() {
			switch {
			case rel == "":
				return nil
			case !sub, rel == workspace.HistoriesDir, rel == workspace.SubthemesDir, strings.HasPrefix(d.Name(), "."):
				return fs.SkipDir
			}
			return nil
		}
		if strings.HasPrefix(d.Name(), ".") || !d.Type().IsRegular() || (cursor != "" && full <= cursor) {
			return nil
		}
		if fi, err := d.Info(); err == nil {
			all = append(all, ArtifactEntry{Path: full, Size: fi.Size(), Modified: fi.ModTime().In(t.WS.Loc).Format(time.RFC3339)})
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	sort.Slice(all, func(i, j int) bool { return all[i].Path < all[j].Path })
	res := &ArtifactsResult{Files: all[:min(limit, len(all))]}
	if len(all) > limit {
		res.NextCursor = all[limit-1].Path
	}
	return res, nil
}
