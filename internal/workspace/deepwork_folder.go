package workspace

import (
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"strings"
	"time"
)

// DeepWorkFile is one declaration file of stats/deep_work as it was read.
type DeepWorkFile struct {
	Rel     string
	ID      ID
	ModTime time.Time // more precise than declared_at (whole seconds)
	Decl    Declaration
	// ParseErr is set when the content is not a declaration (it is then to
	// be renamed .invalid.txt); ReadErr when the file could not be read.
	ParseErr, ReadErr error
}

// DeepWorkFolder is what stats/deep_work holds.
type DeepWorkFolder struct {
	// Active are the <ID>.txt files, oldest ID first, parsed when possible.
	Active []DeepWorkFile
	// LastCompleted is the <ID>.completed.txt with the greatest ID, or nil;
	// its Decl has only the ID when the content does not parse.
	LastCompleted *DeepWorkFile
}

// ReadDeepWork lists stats/deep_work once and reads the active declarations
// and the newest completed one: one small folder, whatever the history.
// Expired and invalid files are skipped by name. A missing folder is empty.
func (w *Workspace) ReadDeepWork() (DeepWorkFolder, error) { return w.readDeepWork(true) }

// ReadActiveDeepWork is ReadDeepWork without the completed declaration, for
// callers that only need what is in force (the tools, on every call).
func (w *Workspace) ReadActiveDeepWork() ([]DeepWorkFile, error) {
	f, err := w.readDeepWork(false)
	return f.Active, err
}

func (w *Workspace) readDeepWork(completed bool) (DeepWorkFolder, error) {
	var out DeepWorkFolder
	ents, err := w.ReadDir(DeepWorkDir)
	if errors.Is(err, fs.ErrNotExist) {
		return out, nil
	}
	if err != nil {
		return out, fmt.Errorf("list %s: %w", DeepWorkDir, err)
	}
	var lastCompleted string
	for _, e := range ents {
		name := e.Name()
		id, state, ok := ParseDeepWorkName(name)
		if !ok || strings.HasPrefix(name, ".") || e.IsDir() {
			continue
		}
		switch state {
		case Completed:
			if name > lastCompleted {
				lastCompleted = name // names sort by ID
			}
		case Active:
			f, ok := w.readDeclarationFile(DeepWorkDir+"/"+name, id)
			if ok {
				out.Active = append(out.Active, f)
			}
		}
	}
	sort.Slice(out.Active, func(i, j int) bool { return out.Active[i].ID < out.Active[j].ID })
	if completed && lastCompleted != "" {
		id, _, _ := ParseDeepWorkName(lastCompleted)
		if f, ok := w.readDeclarationFile(DeepWorkDir+"/"+lastCompleted, id); ok {
			if f.ParseErr != nil || f.ReadErr != nil {
				f.Decl = Declaration{ID: id}
			}
			out.LastCompleted = &f
		}
	}
	return out, nil
}

// readDeclarationFile reads one declaration; false when it is gone (renamed
// by another process meanwhile) or not a regular file.
func (w *Workspace) readDeclarationFile(rel string, id ID) (DeepWorkFile, bool) {
	f := DeepWorkFile{Rel: rel, ID: id}
	fi, err := w.Stat(rel)
	if err != nil || !fi.Mode().IsRegular() {
		return f, false
	}
	f.ModTime = fi.ModTime()
	b, err := w.ReadFile(rel, MaxSmallFile)
	if errors.Is(err, fs.ErrNotExist) {
		return f, false
	}
	if err != nil {
		f.ReadErr = err
		return f, true
	}
	f.Decl, f.ParseErr = ParseDeclaration(id, b, w.Loc)
	return f, true
}
