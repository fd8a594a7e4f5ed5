package workspace

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"time"
)

// TempMaxAge is how old a writer's temp file must be before SweepTemps
// removes it: far longer than any write takes.
const TempMaxAge = time.Hour

// IsWriterTemp reports whether name is a temp file of this project's atomic
// writers: renameio's "."+target+random digits (a random int64, so 12 digits
// or more in practice) beside a file of a kind the tools write, or the
// staging file ".stage-"+digits of an exclusive create. A name a person or an
// agent would choose does not match.
func IsWriterTemp(name string) bool {
	if strings.HasPrefix(name, ".stage-") {
		return len(name) > len(".stage-") && allDigits(name[len(".stage-"):])
	}
	if !strings.HasPrefix(name, ".") {
		return false
	}
	base := strings.TrimRight(name[1:], "0123456789")
	if len(name)-1-len(base) < 12 {
		return false
	}
	for _, ext := range []string{".md", ".txt", ".json", ".jsonl"} {
		if strings.HasSuffix(base, ext) && len(base) > len(ext) {
			return true
		}
	}
	return false
}

func allDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// SweepTemps removes the temp files that killed writers left behind in the
// folders the tools and the watchdog write to (stats/ and its folders, theme
// records, every histories folder), once they are older than maxAge. It
// never touches any other file, and never a file outside the workspace: a
// folder that is a link out of it is skipped and named in the error
// (ErrOutside), as is a folder that cannot be read. It returns how many
// files it removed.
func (w *Workspace) SweepTemps(now time.Time, maxAge time.Duration) (int, error) {
	r, err := os.OpenRoot(w.Root)
	if err != nil {
		return 0, fmt.Errorf("sweep: %w", err)
	}
	defer r.Close()
	dirs := []string{StatsDir, ThemeHistoriesDir}
	var errs []error
	if ents, err := ReadAgentDir(w.Path(StatsDir)); err == nil {
		for _, e := range ents {
			if e.IsDir() && !strings.HasPrefix(e.Name(), ".") {
				dirs = append(dirs, StatsDir+"/"+e.Name())
			}
		}
	}
	hist, err := w.HistoryDirs()
	if err != nil {
		errs = append(errs, err)
	}
	dirs = append(dirs, hist...)
	n := 0
	for _, d := range dirs {
		removed, err := sweepDir(w, r, d, now, maxAge)
		n += removed
		if err != nil {
			errs = append(errs, err)
		}
	}
	return n, errors.Join(errs...)
}

// sweepDir removes the old writer temps of one folder, through the root, so
// a link planted after the check cannot carry a removal out.
func sweepDir(w *Workspace, r *os.Root, d string, now time.Time, maxAge time.Duration) (int, error) {
	if _, err := w.Resolve(d); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return 0, nil
		}
		return 0, fmt.Errorf("sweep %s: %w", d, err)
	}
	sub, err := r.OpenRoot(rootName(d))
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("sweep %s: %w", d, err)
	}
	defer sub.Close()
	ents, err := ReadAgentDir(w.Path(d))
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return 0, nil
		}
		return 0, err
	}
	n := 0
	var errs []error
	for _, e := range ents {
		if !e.Type().IsRegular() || !IsWriterTemp(e.Name()) {
			continue
		}
		fi, err := sub.Lstat(e.Name())
		if err != nil || !fi.Mode().IsRegular() || now.Sub(fi.ModTime()) < maxAge {
			continue
		}
		if err := sub.Remove(e.Name()); err == nil {
			n++
		} else if !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	return n, errors.Join(errs...)
}
