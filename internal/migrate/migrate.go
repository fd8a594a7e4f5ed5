// Package migrate moves a workspace of the old bash + TypeScript system to
// the current layout (docs/design.md section 3): stats/extended_processing/ becomes
// stats/deep_work/.
//
//   - current.conf (ハートビートID / 計画処理時間 / 理由) becomes <ID>.txt, a
//     strict declaration of that many minutes in the current format;
//   - processed.<x> becomes <ID>.completed.txt and expired.<x> becomes
//     <ID>.expired.txt, their content copied as it is (the ID from the
//     file's ハートビートID line, else from its name);
//   - files already named <ID>[.state].txt are copied as they are.
//
// Nothing is deleted: files are copied (keeping their modification times,
// so old declarations never look fresh to the watchdog) and the old folder
// is then renamed stats/extended_processing.migrated. A target that exists
// with the same content counts as done; with other content it is a conflict:
// it is never replaced, and the old folder stays in place until the conflict
// is resolved, so running Run again is safe and changes nothing. A target that
// exists but cannot be read (a folder, say) is an error, not a conflict.
package migrate

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"regexp"
	"sort"
	"strings"

	"github.com/ai-heart/ai-heart/internal/safeopen"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// LegacyConf is the live declaration file of the old layout.
const LegacyConf = "current.conf"

// MigratedSuffix is appended to the old folder's name once it is migrated.
const MigratedSuffix = ".migrated"

// Kind is what happened to one legacy file.
type Kind string

// Kinds of Step.
const (
	// Converted: current.conf written as a declaration in the new format.
	Converted Kind = "converted"
	// Copied: a file copied under its new name.
	Copied Kind = "copied"
	// Invalid: a current.conf that cannot be parsed, copied as <ID>.invalid.txt.
	Invalid Kind = "invalid"
	// Done: the target exists with the content a copy would have.
	Done Kind = "already there"
	// Conflict: the target exists with other content; nothing written.
	Conflict Kind = "conflict"
	// Skipped: a file that is not a declaration, or whose ID cannot be told;
	// it stays in the (renamed) old folder.
	Skipped Kind = "skipped"
	// Renamed: the old folder, renamed once everything is migrated.
	Renamed Kind = "renamed"
)

// Step is one thing Run did or refused to do; paths are workspace-relative.
type Step struct {
	Kind Kind
	From string
	To   string
	Note string
}

// String renders the step for people.
func (s Step) String() string {
	out := fmt.Sprintf("%-13s %s", s.Kind, s.From)
	if s.To != "" {
		out += " -> " + s.To
	}
	if s.Note != "" {
		out += " (" + s.Note + ")"
	}
	return out
}

// Report is the outcome of Run.
type Report struct {
	// Found is true when there was an old folder to migrate.
	Found bool
	Steps []Step
	// Latest is the latest-proof index after Run built or checked it.
	Latest workspace.Latest
}

// Conflicts counts the steps that block the migration.
func (r Report) Conflicts() int {
	n := 0
	for _, s := range r.Steps {
		if s.Kind == Conflict {
			n++
		}
	}
	return n
}

// Changed reports whether Run wrote or renamed anything.
func (r Report) Changed() bool {
	for _, s := range r.Steps {
		switch s.Kind {
		case Converted, Copied, Invalid, Renamed:
			return true
		}
	}
	return false
}

// Run migrates ws and then builds the latest-proof index, so the tools start
// fast on an old workspace. An error is an I/O failure; conflicts are
// reported in the Report (see Report.Conflicts) and leave the old folder in
// place.
func Run(ws *workspace.Workspace) (Report, error) {
	var rep Report
	legacy := workspace.LegacyDeepWorkDir
	fi, err := os.Stat(ws.Path(legacy))
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return rep, fmt.Errorf("migrate %s: %w", legacy, err)
	case !fi.IsDir():
		return rep, fmt.Errorf("migrate %s: not a folder", legacy)
	default:
		rep.Found = true
		if err := migrateDir(ws, legacy, &rep); err != nil {
			return rep, err
		}
	}
	// UpdateLatest scans the history once when the index has no log and
	// stores it, so the tools start fast on an old workspace.
	if err := ws.UpdateLatest(func(l *workspace.Latest) { rep.Latest = *l }); err != nil {
		return rep, fmt.Errorf("build latest-proof index: %w", err)
	}
	return rep, nil
}

// migrateDir copies every legacy file and renames the folder when no
// conflict is left.
func migrateDir(ws *workspace.Workspace, legacy string, rep *Report) error {
	ents, err := safeopen.ReadDir(ws.Path(legacy))
	if err != nil {
		return fmt.Errorf("migrate %s: %w", legacy, err)
	}
	sort.Slice(ents, func(i, j int) bool { return ents[i].Name() < ents[j].Name() })
	for _, e := range ents {
		name := e.Name()
		from := legacy + "/" + name
		if strings.HasPrefix(name, ".") {
			continue // temp files of the old tools
		}
		if !e.Type().IsRegular() {
			rep.Steps = append(rep.Steps, Step{Kind: Skipped, From: from, Note: "not a regular file"})
			continue
		}
		step, err := migrateFile(ws, from, name)
		if err != nil {
			return err
		}
		rep.Steps = append(rep.Steps, step)
	}
	if rep.Conflicts() > 0 {
		return nil
	}
	to, err := freeName(ws, legacy+MigratedSuffix)
	if err != nil {
		return err
	}
	if err := ws.Rename(legacy, to); err != nil {
		return fmt.Errorf("rename %s: %w", legacy, err)
	}
	rep.Steps = append(rep.Steps, Step{Kind: Renamed, From: legacy + "/", To: to + "/", Note: "kept, nothing deleted"})
	return nil
}

// freeName returns base, or base.2, base.3 ... when taken (a workspace
// migrated before whose old system wrote the old folder again).
func freeName(ws *workspace.Workspace, base string) (string, error) {
	for n := 1; n < 1000; n++ {
		name := base
		if n > 1 {
			name = fmt.Sprintf("%s.%d", base, n)
		}
		if _, err := os.Lstat(ws.Path(name)); errors.Is(err, fs.ErrNotExist) {
			return name, nil
		}
	}
	return "", fmt.Errorf("rename %s: no free name", base)
}

// maxFile bounds a legacy file migrate copies: a larger one is an error, not
// a cut copy.
const maxFile = 16 << 20

// migrateFile copies one legacy file to its new name.
func migrateFile(ws *workspace.Workspace, from, name string) (Step, error) {
	abs := ws.Path(from)
	data, err := safeopen.ReadAll(abs, maxFile)
	if err != nil {
		return Step{}, fmt.Errorf("read %s: %w", from, err)
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return Step{}, fmt.Errorf("stat %s: %w", from, err)
	}
	target, kind, note := Target(name, data, ws)
	if target == nil {
		return Step{Kind: Skipped, From: from, Note: note}, nil
	}
	to := workspace.DeepWorkDir + "/" + target.Name
	err = ws.CreateNew(to, target.Data, fi.ModTime())
	if errors.Is(err, os.ErrExist) {
		existing, rerr := safeopen.ReadAll(ws.Path(to), maxFile)
		if rerr != nil {
			return Step{}, fmt.Errorf("migrate %s: existing %s: %w", from, to, rerr)
		}
		if bytes.Equal(existing, target.Data) {
			return Step{Kind: Done, From: from, To: to}, nil
		}
		return Step{Kind: Conflict, From: from, To: to, Note: "the target exists with other content; nothing was replaced"}, nil
	}
	if err != nil {
		return Step{}, fmt.Errorf("migrate %s: %w", from, err)
	}
	return Step{Kind: kind, From: from, To: to, Note: note}, nil
}

// File is the new name and content of a legacy file inside stats/deep_work.
type File struct {
	Name string
	Data []byte
}

// idLine finds "ハートビートID: <ID>" (ASCII or full-width colon).
var idLine = regexp.MustCompile(`(?mi)^[\s\-*]*ハートビートID\s*[:：]\s*(\S+)`)

// idInName finds a 14-digit run in a file name.
var idInName = regexp.MustCompile(`\d{14}`)

// legacyID reads the heartbeat ID of a legacy file: its ハートビートID line,
// else the first valid 14-digit run of its name.
func legacyID(name string, data []byte) (workspace.ID, bool) {
	if m := idLine.FindSubmatch(data); m != nil {
		if id, err := workspace.ParseID(string(m[1])); err == nil {
			return id, true
		}
	}
	for _, s := range idInName.FindAllString(name, -1) {
		if id, err := workspace.ParseID(s); err == nil {
			return id, true
		}
	}
	return "", false
}

// Target says what a legacy file of stats/extended_processing becomes: its
// new name and content in stats/deep_work, the kind of step and a note; a
// nil File means the file is left where it is (the note says why).
func Target(name string, data []byte, ws *workspace.Workspace) (*File, Kind, string) {
	var state workspace.DeepWorkState
	switch {
	case name == LegacyConf:
		id, ok := legacyID("", data)
		if !ok {
			return nil, Skipped, "no valid ハートビートID line: cannot name it"
		}
		d, err := workspace.ParseDeclaration(id, data, ws.Loc)
		if err != nil {
			return &File{workspace.DeepWorkName(id, workspace.Invalid), data}, Invalid, err.Error()
		}
		return &File{workspace.DeepWorkName(id, workspace.Active), d.Format()}, Converted,
			fmt.Sprintf("strict, %d min, deadline %s", d.PlannedMinutes, d.Deadline.Format("2006-01-02 15:04:05"))
	case strings.HasPrefix(name, "processed."):
		state = workspace.Completed
	case strings.HasPrefix(name, "expired."):
		state = workspace.Expired
	default:
		if id, st, ok := workspace.ParseDeepWorkName(name); ok {
			return &File{workspace.DeepWorkName(id, st), data}, Copied, ""
		}
		return nil, Skipped, "not a declaration; it stays in the old folder"
	}
	id, ok := legacyID(name, data)
	if !ok {
		return nil, Skipped, "no heartbeat ID in its content or name; it stays in the old folder"
	}
	return &File{workspace.DeepWorkName(id, state), data}, Copied, ""
}
