package workspace

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"time"

	"github.com/ai-heart/ai-heart/internal/safeopen"
)

// TempMaxAge is how old a writer's temp file must be before SweepTemps
// removes it: far longer than any write takes.
const TempMaxAge = time.Hour

// IsWriterTemp reports whether name is a temp file of this project's atomic
// writers: renameio's "."+target+random digits (a random int64, so 12 digits
// or more in practice) beside a file of a kind the tools write, or the
// staging file ".stage-"+digits of an exclusive create, or a scanner's
// barrier ".scan-barrier-PID-N-N" (touched at every pulse while its watchdog
// lives, so only a killed one's ages). A name a person or an agent would
// choose does not match.
func IsWriterTemp(name string) bool {
	if strings.HasPrefix(name, ".stage-") {
		return len(name) > len(".stage-") && allDigits(name[len(".stage-"):])
	}
	if rest, ok := strings.CutPrefix(name, ".scan-barrier-"); ok {
		parts := strings.Split(rest, "-")
		return len(parts) == 3 && parts[0] != "" && parts[1] != "" && parts[2] != "" && allDigits(strings.Join(parts, ""))
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
	dirs := []string{StatsDir, ThemeHistoriesDir}
	var errs []error
	if ents, err := w.ReadDir(StatsDir); err == nil {
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
		removed, err := w.sweepDir(d, now, maxAge)
		n += removed
		if err != nil {
			errs = append(errs, err)
		}
	}
	return n, errors.Join(errs...)
}

// sweepDir removes the old writer temps of one folder, opened once inside
// the root, so a link planted meanwhile cannot carry a removal out.
func (w *Workspace) sweepDir(d string, now time.Time, maxAge time.Duration) (int, error) {
	n := 0
	err := w.in(d, func(r *os.Root, name string) error {
		sub, err := r.OpenRoot(name)
		if err != nil {
			return err
		}
		defer sub.Close()
		ents, err := safeopen.ReadDirIn(sub, ".")
		if err != nil {
			return err
		}
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
		return errors.Join(errs...)
	})
	if errors.Is(err, fs.ErrNotExist) {
		return n, nil
	}
	if err != nil {
		return n, fmt.Errorf("sweep %s: %w", d, err)
	}
	return n, nil
}
