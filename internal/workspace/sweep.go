package workspace

import (
	"errors"
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
// never touches any other file. It returns how many it removed; a folder
// that cannot be read is skipped and reported in the error.
func (w *Workspace) SweepTemps(now time.Time, maxAge time.Duration) (int, error) {
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
		ents, err := ReadAgentDir(w.Path(d))
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				errs = append(errs, err)
			}
			continue
		}
		for _, e := range ents {
			if !e.Type().IsRegular() || !IsWriterTemp(e.Name()) {
				continue
			}
			fi, err := e.Info()
			if err != nil || now.Sub(fi.ModTime()) < maxAge {
				continue
			}
			if err := os.Remove(w.Path(d, e.Name())); err == nil {
				n++
			} else if !errors.Is(err, fs.ErrNotExist) {
				errs = append(errs, err)
			}
		}
	}
	return n, errors.Join(errs...)
}
