package scan

import (
	"bufio"
	"bytes"
	"errors"
	"io/fs"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/ai-heart/ai-heart/internal/workspace"
)

// The small folders are re-read whole when an event touches them: they hold a
// few files each (declarations are renamed, inbox files processed, markers
// removed), unlike the histories.

// deepWork is what stats/deep_work says.
type deepWork struct {
	active    []workspace.DeepWorkFile
	invalid   []InvalidDeclaration
	completed *CompletedDeepWork
}

// readNames lists a folder's names without dot-files; a missing folder is empty.
func readNames(abs string) ([]string, error) {
	f, err := workspace.OpenAgentDir(abs)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	names, err := f.Readdirnames(-1)
	if err != nil {
		return nil, err
	}
	out := names[:0]
	for _, n := range names {
		if !strings.HasPrefix(n, ".") {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out, nil
}

// readDeepWork reads stats/deep_work through the workspace, its one reader:
// active declarations parsed (or listed as invalid) and the completed one
// with the greatest ID. Unreadable files are skipped until they read.
func readDeepWork(ws *workspace.Workspace) (deepWork, error) {
	var d deepWork
	f, err := ws.ReadDeepWork()
	if err != nil {
		return d, err
	}
	for _, a := range f.Active {
		switch {
		case a.ReadErr != nil:
		case a.ParseErr != nil:
			d.invalid = append(d.invalid, InvalidDeclaration{Rel: a.Rel, ID: a.ID, Err: a.ParseErr.Error()})
		default:
			d.active = append(d.active, a)
		}
	}
	if c := f.LastCompleted; c != nil {
		d.completed = &CompletedDeepWork{Decl: c.Decl, Rel: c.Rel, ModTime: c.ModTime}
	}
	return d, nil
}

// readThemeRecords finds the newest ID among artifacts/theme_histories files
// and every file sharing it.
func readThemeRecords(ws *workspace.Workspace) (workspace.ID, []string, error) {
	names, err := readNames(ws.Path(workspace.ThemeHistoriesDir))
	if err != nil {
		return "", nil, err
	}
	var newest workspace.ID
	var recs []string
	for _, n := range names {
		id, ok := workspace.IDPrefix(n)
		if !ok {
			continue
		}
		switch {
		case id > newest:
			newest, recs = id, recs[:0]
			fallthrough
		case id == newest:
			recs = append(recs, workspace.ThemeHistoriesDir+"/"+n)
		}
	}
	return newest, recs, nil
}

// readInbox lists the unprocessed markdown files of themebox or feedbackbox:
// not dot-files, not "draft." (not ready) and not "processed." (handled).
// The folder's entry types say which are files, so only a link is stat'ed.
func readInbox(ws *workspace.Workspace, dir string) ([]InboxItem, error) {
	ents, err := workspace.ReadAgentDir(ws.Path(dir))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []InboxItem
	for _, e := range ents {
		n := e.Name()
		if strings.HasPrefix(n, ".") || strings.HasPrefix(n, "draft.") || strings.HasPrefix(n, "processed.") || !strings.HasSuffix(n, ".md") {
			continue
		}
		rel := dir + "/" + n
		if !e.Type().IsRegular() {
			if e.Type()&fs.ModeSymlink == 0 {
				continue
			}
			if fi, err := os.Stat(ws.Path(rel)); err != nil || !fi.Mode().IsRegular() {
				continue
			}
		}
		out = append(out, InboxItem{Rel: rel, Name: n, Interrupt: strings.HasPrefix(n, "interrupt.")})
	}
	return out, nil
}

// readMarkers lists the restriction markers of stats/cooldown or stats/lock.
func readMarkers(ws *workspace.Workspace, dir, kind string) ([]Marker, error) {
	names, err := readNames(ws.Path(dir))
	if err != nil {
		return nil, err
	}
	var out []Marker
	for _, n := range names {
		rel := dir + "/" + n
		abs := ws.Path(rel)
		fi, err := os.Stat(abs)
		if err != nil || !fi.Mode().IsRegular() {
			continue
		}
		m := Marker{Kind: kind, Tool: n, Rel: rel, Since: fi.ModTime()}
		if fi.Size() <= workspace.MaxSmallFile {
			if b, err := workspace.ReadAgentFile(abs, workspace.MaxSmallFile); err == nil {
				m.Until = markerUntil(b, m.Since)
			}
		}
		out = append(out, m)
	}
	return out, nil
}

// markerUntil reads "until: <RFC 3339>" or "duration: <Go duration>" (from
// since); the first usable line wins; zero when there is none.
func markerUntil(b []byte, since time.Time) time.Time {
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			continue
		}
		v = strings.TrimSpace(v)
		switch strings.ToLower(strings.TrimSpace(k)) {
		case "until":
			if t, err := time.Parse(time.RFC3339, v); err == nil {
				return t
			}
		case "duration":
			if d, err := time.ParseDuration(v); err == nil && d > 0 {
				return since.Add(d)
			}
		}
	}
	return time.Time{}
}

// readSmall re-reads one small folder; on error the previous view is kept.
func (s *Scanner) readSmall(d string) {
	delete(s.dirty, d)
	var err error
	switch d {
	case workspace.DeepWorkDir:
		var dw deepWork
		if dw, err = readDeepWork(s.ws); err == nil {
			s.dw = dw
		}
	case workspace.ThemeHistoriesDir:
		var id workspace.ID
		var recs []string
		if id, recs, err = readThemeRecords(s.ws); err == nil {
			s.themeID, s.themes = id, recs
		}
	case workspace.FeedbackboxDir:
		var items []InboxItem
		if items, err = readInbox(s.ws, d); err == nil {
			s.feedback = items
		}
	case workspace.ThemeboxDir:
		var items []InboxItem
		if items, err = readInbox(s.ws, d); err == nil {
			s.themebox = items
		}
	case workspace.CooldownDir:
		var ms []Marker
		if ms, err = readMarkers(s.ws, d, Cooldown); err == nil {
			s.cooldown = ms
		}
	case workspace.LockDir:
		var ms []Marker
		if ms, err = readMarkers(s.ws, d, Lock); err == nil {
			s.lock = ms
		}
	}
	if err != nil {
		s.logf("scan: read %s: %v", d, err)
	}
}
