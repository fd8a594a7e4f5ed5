package workspace

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// Newer is the one order of "newest" files everywhere: a later modification
// time first, a tie broken by the greater path (IDs sort by time, and the
// sequence suffix after them).
func Newer(aTime time.Time, aPath string, bTime time.Time, bPath string) bool {
	if !aTime.Equal(bTime) {
		return aTime.After(bTime)
	}
	return aPath > bPath
}

// FileStat is a workspace file whose name starts with a heartbeat ID.
type FileStat struct {
	Rel     string // slash-separated, workspace-relative
	ID      ID
	ModTime time.Time
}

// IsLogName reports whether name is an activity log name (<ID>.md or
// <ID>_NN.md; dot-files are temp files and never count).
func IsLogName(name string) bool {
	if strings.HasPrefix(name, ".") || !strings.HasSuffix(name, ".md") {
		return false
	}
	_, ok := IDPrefix(name)
	return ok
}

// IsCheckpointName reports whether name is a checkpoint file name (<ID>.txt).
func IsCheckpointName(name string) bool {
	if strings.HasPrefix(name, ".") || !strings.HasSuffix(name, ".txt") {
		return false
	}
	_, ok := IDPrefix(name)
	return ok
}

// HistoryDirs lists every histories folder: artifacts/<theme>/histories and,
// at any depth, .../subthemes/<theme>/histories. The cost is the number of
// themes, not of logs.
func (w *Workspace) HistoryDirs() ([]string, error) {
	var out []string
	seen := map[string]bool{} // real theme folders: linked folders can loop
	var walk func(dir string) error
	walk = func(dir string) error {
		ents, err := w.ReadDir(dir)
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("list %s: %w", dir, err)
		}
		for _, e := range ents {
			name := e.Name()
			if strings.HasPrefix(name, ".") || !isDirEntry(w, dir+"/"+name, e) {
				continue
			}
			if _, ok := IDPrefix(name); !ok {
				continue // theme_histories and other folders are not themes
			}
			theme := dir + "/" + name
			real, err := filepath.EvalSymlinks(w.Path(theme))
			if err != nil || seen[real] {
				continue
			}
			seen[real] = true
			// One linked out is listed too: the sweep refuses it by name
			// (ErrOutside), so the operator hears of it; readers skip it.
			if fi, err := w.Stat(theme + "/" + HistoriesDir); (err == nil && fi.IsDir()) || errors.Is(err, ErrOutside) {
				out = append(out, theme+"/"+HistoriesDir)
			}
			if err := walk(theme + "/" + SubthemesDir); err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk(ArtifactsDir); err != nil {
		return nil, err
	}
	sort.Strings(out)
	return out, nil
}

// isDirEntry follows a symlinked entry, since users may link theme folders.
func isDirEntry(w *Workspace, rel string, e fs.DirEntry) bool {
	if e.IsDir() {
		return true
	}
	if e.Type()&fs.ModeSymlink == 0 {
		return false
	}
	fi, err := w.Stat(rel)
	return err == nil && fi.IsDir()
}

// NewestByName returns up to k regular files of dir whose names pass keep,
// taking the k greatest such names (IDs sort by time) and stating only those;
// the result is sorted newest modification time first. keep is asked only
// about a name that would enter the k greatest, so it may be costly (a full
// ID parse) over a million names, and invalid names never take a valid one's
// place. A missing dir gives nothing.
func (w *Workspace) NewestByName(dir string, k int, keep func(string) bool) ([]FileStat, error) {
	if k <= 0 {
		return nil, nil
	}
	f, err := w.OpenDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list %s: %w", dir, err)
	}
	defer f.Close()
	g := Greatest{K: k, Valid: keep}
	for {
		names, err := f.Readdirnames(1024)
		for _, n := range names {
			g.Offer(n)
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("list %s: %w", dir, err)
		}
	}
	top := g.Names
	out := make([]FileStat, 0, len(top))
	for _, n := range top {
		rel := dir + "/" + n
		fi, err := w.Stat(rel)
		if err != nil || !fi.Mode().IsRegular() {
			continue // renamed away meanwhile, or a folder
		}
		id, _ := IDPrefix(n)
		out = append(out, FileStat{Rel: rel, ID: id, ModTime: fi.ModTime()})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].ModTime.After(out[j].ModTime) })
	return out, nil
}

// ReadLog reads and parses the activity log at rel.
func (w *Workspace) ReadLog(rel string) (ActivityLog, error) {
	b, err := w.ReadFile(rel, MaxTextFile)
	if err != nil {
		return ActivityLog{}, fmt.Errorf("read log %s: %w", rel, err)
	}
	return ParseActivityLog(b), nil
}

// scanDepth is how many of the newest names per histories folder a full scan
// looks at. Proofs are named by the current ID, so the newest file of a
// folder is among its greatest names unless an old log is edited in place.
const scanDepth = 16

// ScanLatest builds the latest-proof index from the files themselves. It
// reads every histories folder's names (no file contents but the newest few),
// so it runs only when no index exists yet, for example on a workspace the
// old system wrote.
func (w *Workspace) ScanLatest() (Latest, error) {
	var l Latest
	dirs, err := w.HistoryDirs()
	if err != nil {
		return l, err
	}
	// A folder's modification time moves when a log is created in it, so
	// folders are listed newest first, and the walk stops once the newest
	// log and introspection are newer than every folder left: at 100k logs
	// in 100 themes it lists one or two folders, not all of them. (A log
	// edited in place moves only its own time; the watchdog's pulse notes
	// such proofs in the index.)
	type folder struct {
		rel   string
		mtime time.Time
	}
	folders := make([]folder, 0, len(dirs))
	for _, d := range dirs {
		if fi, err := w.Stat(d); err == nil {
			folders = append(folders, folder{d, fi.ModTime()})
		}
	}
	sort.SliceStable(folders, func(i, j int) bool { return folders[i].mtime.After(folders[j].mtime) })
	var logs []FileStat
	types := map[string]readType{} // each log is read once
	for _, f := range folders {
		if l.Log != nil && l.Introspection != nil && f.mtime.Before(l.Introspection.ModTime) {
			break
		}
		top, err := w.NewestByName(f.rel, scanDepth, IsLogName)
		if err != nil {
			return l, err
		}
		logs = append(logs, top...)
		l = newestProofs(w, logs, types)
	}
	cps, err := w.NewestByName(CheckpointsDir, scanDepth, IsCheckpointName)
	if err != nil {
		return l, err
	}
	if len(cps) > 0 {
		p, err := w.ReadCheckpointProof(cps[0].Rel)
		if err == nil {
			l.Checkpoint = &p
		}
	}
	return l, nil
}

// newestProofs reads the newest log and the newest introspection among the
// candidate logs, newest first by modification time.
// readType is a log's type as read; ok is false when it could not be read.
type readType struct {
	typ ActivityType
	ok  bool
}

func newestProofs(w *Workspace, logs []FileStat, types map[string]readType) Latest {
	var l Latest
	sort.SliceStable(logs, func(i, j int) bool { return logs[i].ModTime.After(logs[j].ModTime) })
	for _, f := range logs {
		if l.Log != nil && l.Introspection != nil {
			break
		}
		rt, seen := types[f.Rel]
		if !seen {
			lg, err := w.ReadLog(f.Rel)
			rt = readType{lg.Type, err == nil}
			types[f.Rel] = rt
		}
		if !rt.ok {
			continue
		}
		typ := rt.typ
		p := &Proof{Path: f.Rel, ID: f.ID, ModTime: f.ModTime, Type: typ}
		if l.Log == nil { // the newest readable one
			l.Log = p
		}
		if typ == Introspection && l.Introspection == nil {
			l.Introspection = p
		}
	}
	return l
}

// ReadCheckpointProof reads the checkpoint file at rel as a proof.
func (w *Workspace) ReadCheckpointProof(rel string) (Proof, error) {
	fi, err := w.Stat(rel)
	if err != nil {
		return Proof{}, fmt.Errorf("read checkpoint %s: %w", rel, err)
	}
	b, err := w.ReadFileTail(rel, MaxTextFile)
	if err != nil {
		return Proof{}, fmt.Errorf("read checkpoint %s: %w", rel, err)
	}
	id, _ := IDPrefix(rel[strings.LastIndex(rel, "/")+1:])
	return Proof{Path: rel, ID: id, ModTime: fi.ModTime(), Message: LastCheckpointMessage(b)}, nil
}

// Greatest keeps the K greatest names offered to it, greatest first. Heartbeat
// IDs sort by time, so it finds a folder's newest files from names alone,
// in memory bounded by K however large the folder.
type Greatest struct {
	K int
	// Valid, when set, must accept a name for it to be kept. It is called
	// only for a name that would enter the K greatest, so a costly check
	// stays cheap over a million names; nil keeps every name.
	Valid func(string) bool
	Names []string
}

// Offer considers one name.
func (g *Greatest) Offer(n string) {
	if g.K <= 0 || (len(g.Names) == g.K && n <= g.Names[g.K-1]) {
		return
	}
	if g.Valid != nil && !g.Valid(n) {
		return
	}
	i := sort.Search(len(g.Names), func(i int) bool { return g.Names[i] < n })
	g.Names = append(g.Names, "")
	copy(g.Names[i+1:], g.Names[i:])
	g.Names[i] = n
	if len(g.Names) > g.K {
		g.Names = g.Names[:g.K]
	}
}
