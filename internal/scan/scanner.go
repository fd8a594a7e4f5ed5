package scan

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/fsnotify/fsnotify"

	"github.com/ai-heart/ai-heart/internal/workspace"
)

// namesPerFolder is how many of the greatest names of each histories folder
// (and of stats/checkpoints) a full scan stats: proofs are named by the
// current ID, so the newest file of a folder is among its greatest names.
const namesPerFolder = 16

// maxLogReads bounds how many logs a full scan reads looking for the last
// introspection; stats/latest_proof.json covers one older than that.
const maxLogReads = 64

// dirKind says what a watched folder holds, and so what an event in it means.
type dirKind int

const (
	kRoot dirKind = iota + 1
	kStats
	kArtifacts
	kTheme
	kSubthemes
	kHistories
	kCheckpoints
	kSmall
)

// smallDirs are re-read whole when they change.
var smallDirs = []string{
	workspace.DeepWorkDir, workspace.ThemeHistoriesDir, workspace.FeedbackboxDir,
	workspace.ThemeboxDir, workspace.CooldownDir, workspace.LockDir,
}

// Scanner produces Snapshots of one workspace, incrementally after the first.
// It is used by one goroutine (the pulse); Close releases its inotify watches.
type Scanner struct {
	// Logf receives one line when the scanner falls back to a full rescan or
	// cannot watch a folder; nil discards them.
	Logf func(format string, args ...any)
	// Poll lists the whole workspace on every scan instead of following it
	// with inotify: for file systems without inotify, and for tests under
	// testing/synctest, where a goroutine blocked on inotify stalls fake time.
	Poll bool

	ws      *workspace.Workspace
	w       *watcher
	dirs    map[string]dirKind // watched folders, workspace-relative ("" = root)
	real    map[string]bool    // real paths of the theme folders taken in: links may repeat or loop
	started bool
	full    string // why the next scan must be full; "" when it need not
	seq     int    // barrier file counter

	recent     []workspace.Proof // newest first, at most RecentLogCount
	intro      *workspace.Proof
	checkpoint *workspace.Proof
	olderCps   []workspace.FileStat // the next newest checkpoints, newest first, at most namesPerFolder
	dirty      map[string]bool      // small folders to re-read

	dw       deepWork
	themeID  workspace.ID
	themes   []string
	feedback []InboxItem
	themebox []InboxItem
	cooldown []Marker
	lock     []Marker

	fullScans int // for tests and benchmarks
	cpLists   int // listings of stats/checkpoints, for tests
}

// NewScanner returns a scanner of ws. Nothing is read until the first Scan.
func NewScanner(ws *workspace.Workspace) *Scanner {
	return &Scanner{ws: ws}
}

// Close stops watching the workspace. The scanner may not be used after it.
func (s *Scanner) Close() error {
	if s.w == nil {
		return nil
	}
	err := s.w.close()
	s.w = nil
	return err
}

func (s *Scanner) logf(format string, args ...any) {
	if s.Logf != nil {
		s.Logf(format, args...)
	}
}

// Scan returns what the workspace holds now. The first call lists every
// histories folder; later calls read only the files that changed since the
// previous call, unless events were lost (then it rescans and says so in
// Snapshot.Rescan and a log line). Malformed files are skipped or reported
// in the snapshot, never an error; the error is for a workspace that cannot
// be read at all.
func (s *Scanner) Scan() (Snapshot, error) {
	if s.Poll {
		if err := s.fullScan(); err != nil {
			return Snapshot{}, err
		}
		return s.snapshot(true, ""), nil
	}
	if s.started && s.full == "" {
		s.incremental()
		if s.full == "" {
			s.verifyNewest()
		}
	}
	full, reason := false, ""
	if !s.started || s.full != "" {
		full, reason = true, s.full
		if reason != "" {
			s.logf("scan: full rescan of %s: %s", s.ws.Root, reason)
		}
		if err := s.fullScan(); err != nil {
			return Snapshot{}, err
		}
	}
	return s.snapshot(full, reason), nil
}

// fullScan rebuilds everything: fresh watches, then the folders' names.
// Watches are added before a folder is listed, so a file created in between
// is seen by one or the other (or both: noting a file is idempotent).
func (s *Scanner) fullScan() error {
	fi, err := os.Stat(s.ws.Root)
	if err != nil {
		return fmt.Errorf("scan workspace: %w", err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("scan workspace: %s is not a folder", s.ws.Root)
	}
	if old := s.w; old != nil {
		// Closing an inotify instance takes the kernel time per watch
		// (about half a millisecond each); the old watcher's goroutine
		// only fills its own set meanwhile, so let it go in the background.
		s.w = nil
		go old.close()
	}
	s.full = ""
	s.fullScans++
	s.dirs = map[string]dirKind{}
	s.real = map[string]bool{}
	s.recent, s.intro, s.checkpoint, s.olderCps = nil, nil, nil, nil
	s.dirty = map[string]bool{}
	if !s.Poll { // polling lists everything on every scan instead
		if w, err := newWatcher(); err != nil {
			s.full = err.Error()
			s.logf("scan: %v; every scan will list the history", err)
		} else {
			s.w = w
		}
	}

	s.watch("", kRoot)
	s.watch(workspace.StatsDir, kStats)
	s.watch(workspace.CheckpointsDir, kCheckpoints)
	for _, d := range smallDirs {
		s.watch(d, kSmall)
	}
	var cands []workspace.FileStat
	if s.isDir(workspace.ArtifactsDir) {
		s.watch(workspace.ArtifactsDir, kArtifacts)
		s.walkThemes(workspace.ArtifactsDir, &cands)
	}
	s.loadLogs(cands)
	s.loadCheckpoints()
	s.foldHints()
	for _, d := range smallDirs {
		s.readSmall(d)
	}
	s.started = true
	return nil
}

// watch adds an inotify watch on the folder rel. A missing folder is not an
// error: its parent's watch reports its creation.
func (s *Scanner) watch(rel string, k dirKind) {
	if _, ok := s.dirs[rel]; ok {
		return
	}
	if s.w == nil {
		return
	}
	err := s.w.fs.Add(s.ws.Path(rel))
	if errors.Is(err, fs.ErrNotExist) {
		return
	}
	if err != nil {
		if s.full == "" {
			s.full = fmt.Sprintf("watch %s: %v (see fs.inotify.max_user_watches)", rel, err)
			s.logf("scan: %s; the next scan lists the history again", s.full)
		}
		return
	}
	s.dirs[rel] = k
}

func (s *Scanner) isDir(rel string) bool {
	fi, err := os.Stat(s.ws.Path(rel))
	return err == nil && fi.IsDir()
}

// walkThemes watches every theme folder under dir (artifacts or a subthemes
// folder), their histories and subthemes, and collects each histories
// folder's newest names. It finds the folders ws.HistoryDirs finds, and
// like it takes each real folder once.
func (s *Scanner) walkThemes(dir string, cands *[]workspace.FileStat) {
	names, err := readNames(s.ws.Path(dir))
	if err != nil {
		s.logf("scan: list %s: %v", dir, err)
		return
	}
	for _, n := range names {
		if _, ok := workspace.IDPrefix(n); !ok {
			continue // theme_histories and other folders are not themes
		}
		if theme := dir + "/" + n; s.isDir(theme) {
			s.addTheme(theme, cands)
		}
	}
}

// addTheme takes in one theme folder unless its real path was taken in
// already: two links to one folder would hold its logs twice under two
// paths, and a subthemes link to an ancestor would recurse until ELOOP.
func (s *Scanner) addTheme(theme string, cands *[]workspace.FileStat) {
	real, err := filepath.EvalSymlinks(s.ws.Path(theme))
	if err != nil || s.real[real] {
		return
	}
	s.real[real] = true
	s.watch(theme, kTheme)
	if h := theme + "/" + workspace.HistoriesDir; s.isDir(h) {
		s.addHistories(h, cands)
	}
	if sub := theme + "/" + workspace.SubthemesDir; s.isDir(sub) {
		s.watch(sub, kSubthemes)
		s.walkThemes(sub, cands)
	}
}

func (s *Scanner) addHistories(h string, cands *[]workspace.FileStat) {
	s.watch(h, kHistories)
	top, err := s.ws.NewestByName(h, namesPerFolder, workspace.IsLogName)
	if err != nil {
		s.logf("scan: %v", err)
		return
	}
	*cands = append(*cands, top...)
}

// sortStats orders files newest modification time first, a tie by the
// greater path, as noteLog orders the logs it holds.
func sortStats(fs []workspace.FileStat) {
	sort.SliceStable(fs, func(i, j int) bool {
		if !fs[i].ModTime.Equal(fs[j].ModTime) {
			return fs[i].ModTime.After(fs[j].ModTime)
		}
		return fs[i].Rel > fs[j].Rel
	})
}

// loadLogs reads the candidates newest first until it has RecentLogCount
// logs and an introspection (or has read maxLogReads).
func (s *Scanner) loadLogs(cands []workspace.FileStat) {
	sortStats(cands)
	for i, c := range cands {
		if i >= maxLogReads || (len(s.recent) >= RecentLogCount && s.intro != nil) {
			break
		}
		lg, err := s.ws.ReadLog(c.Rel)
		if err != nil {
			continue
		}
		p := workspace.Proof{Path: c.Rel, ID: c.ID, ModTime: c.ModTime, Type: lg.Type}
		if len(s.recent) < RecentLogCount {
			s.recent = append(s.recent, p)
		}
		if p.Type == workspace.Introspection && s.intro == nil {
			s.intro = &p
		}
	}
}

// loadCheckpoints lists stats/checkpoints for its newest checkpoints. It
// runs on a full scan, for a checkpoints folder created after it, and when
// every checkpoint the scanner held has been removed; otherwise checkpoints
// are known from their events, as logs are.
func (s *Scanner) loadCheckpoints() {
	s.checkpoint, s.olderCps = nil, nil
	s.cpLists++
	top, err := s.ws.NewestByName(workspace.CheckpointsDir, namesPerFolder, workspace.IsCheckpointName)
	if err != nil {
		s.logf("scan: %v", err)
		return
	}
	s.olderCps = top
	s.nextCheckpoint()
}

// nextCheckpoint holds the newest readable one of olderCps (read only now:
// a full scan reads one checkpoint, not namesPerFolder), or nil.
func (s *Scanner) nextCheckpoint() {
	s.checkpoint = nil
	for len(s.olderCps) > 0 {
		f := s.olderCps[0]
		s.olderCps = s.olderCps[1:]
		if p, err := s.ws.ReadCheckpointProof(f.Rel); err == nil {
			s.checkpoint = &p
			return
		}
	}
}

// keepOlder adds f to olderCps in order (newest mtime first, a tie by the
// greater path, as NewestByName gives them), dropping the oldest beyond
// namesPerFolder.
func (s *Scanner) keepOlder(f workspace.FileStat) {
	i := sort.Search(len(s.olderCps), func(i int) bool {
		o := s.olderCps[i]
		if !o.ModTime.Equal(f.ModTime) {
			return f.ModTime.After(o.ModTime)
		}
		return f.Rel > o.Rel
	})
	if i >= namesPerFolder {
		return
	}
	s.olderCps = append(s.olderCps, workspace.FileStat{})
	copy(s.olderCps[i+1:], s.olderCps[i:])
	s.olderCps[i] = f
	if len(s.olderCps) > namesPerFolder {
		s.olderCps = s.olderCps[:namesPerFolder]
	}
}

// dropOlder removes rel from olderCps.
func (s *Scanner) dropOlder(rel string) {
	for i, f := range s.olderCps {
		if f.Rel == rel {
			s.olderCps = append(s.olderCps[:i], s.olderCps[i+1:]...)
			return
		}
	}
}

// foldHints notes the files stats/latest_proof.json names (mcp-heart keeps it
// current), read from the files themselves: it finds an introspection deeper
// in history than a full scan reads. Only a full scan folds them in: later
// logs and checkpoints fire their own events, while the index is rewritten
// on every tool call and by the watchdog itself.
func (s *Scanner) foldHints() {
	l, err := s.ws.ReadLatest()
	if err != nil {
		return
	}
	for _, p := range []*workspace.Proof{l.Log, l.Introspection} {
		if p != nil && s.isHistoriesPath(p.Path) {
			s.noteLog(p.Path)
		}
	}
	if p := l.Checkpoint; p != nil && path.Dir(p.Path) == workspace.CheckpointsDir && workspace.IsCheckpointName(path.Base(p.Path)) {
		s.noteCheckpoint(p.Path)
	}
}

// isHistoriesPath accepts only an index entry that names a log inside the
// artifacts tree: the index is a file anyone can write.
func (s *Scanner) isHistoriesPath(rel string) bool {
	return strings.HasPrefix(rel, workspace.ArtifactsDir+"/") && !strings.Contains(rel, "..") &&
		!strings.Contains(rel, `\`) && path.Base(path.Dir(rel)) == workspace.HistoriesDir &&
		workspace.IsLogName(path.Base(rel))
}

// tracked reports whether rel is a log the scanner holds.
func (s *Scanner) tracked(rel string) bool {
	if s.intro != nil && s.intro.Path == rel {
		return true
	}
	for _, p := range s.recent {
		if p.Path == rel {
			return true
		}
	}
	return false
}

// noteLog takes in a created or changed log: the newest RecentLogCount logs
// by mtime are among the previous ones and the changed ones, so this keeps
// them exact without listing a folder. A held log that vanished, or the held
// introspection turned into another type, needs a rescan.
func (s *Scanner) noteLog(rel string) {
	fi, err := os.Stat(s.ws.Path(rel))
	if err != nil || !fi.Mode().IsRegular() {
		if s.tracked(rel) && s.full == "" {
			s.full = "log " + rel + " disappeared"
		}
		return
	}
	if s.intro != nil && s.intro.Path == rel && s.intro.ModTime.Equal(fi.ModTime()) {
		return // already read as it is
	}
	for _, p := range s.recent {
		if p.Path == rel && p.ModTime.Equal(fi.ModTime()) {
			return
		}
	}
	lg, err := s.ws.ReadLog(rel)
	if err != nil {
		return
	}
	id, _ := workspace.IDPrefix(path.Base(rel))
	p := workspace.Proof{Path: rel, ID: id, ModTime: fi.ModTime(), Type: lg.Type}
	out := s.recent[:0:0]
	out = append(out, p)
	for _, q := range s.recent {
		if q.Path != rel {
			out = append(out, q)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if !out[i].ModTime.Equal(out[j].ModTime) {
			return out[i].ModTime.After(out[j].ModTime)
		}
		return out[i].Path > out[j].Path
	})
	if len(out) > RecentLogCount {
		out = out[:RecentLogCount]
	}
	s.recent = out
	switch {
	case p.Type == workspace.Introspection:
		if s.intro == nil || s.intro.Path == rel || !p.ModTime.Before(s.intro.ModTime) {
			s.intro = &p
		}
	case s.intro != nil && s.intro.Path == rel && s.full == "":
		s.full = "introspection log " + rel + " was rewritten as another type"
	}
}

// noteCheckpoint takes in a created, changed or removed checkpoint file. A
// removed held checkpoint falls back to the next newest without listing the
// folder (it grows by one file per heartbeat).
func (s *Scanner) noteCheckpoint(rel string) {
	s.dropOlder(rel)
	p, err := s.ws.ReadCheckpointProof(rel)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			s.logf("scan: %v; skipped", err)
		}
		if s.checkpoint != nil && s.checkpoint.Path == rel {
			if s.nextCheckpoint(); s.checkpoint == nil {
				s.loadCheckpoints() // every one held is gone: rare
			}
		}
		return
	}
	held := s.checkpoint
	switch {
	case held == nil || held.Path == rel:
		s.checkpoint = &p
	case !p.ModTime.Before(held.ModTime):
		s.keepOlder(workspace.FileStat{Rel: held.Path, ID: held.ID, ModTime: held.ModTime})
		s.checkpoint = &p
	default:
		s.keepOlder(workspace.FileStat{Rel: rel, ID: p.ID, ModTime: p.ModTime})
	}
}

// verifyNewest stats the newest log and checkpoint, so an in-place rewrite
// whose event was missed (or a file system without events) is still seen.
func (s *Scanner) verifyNewest() {
	if len(s.recent) > 0 {
		p := s.recent[0]
		fi, err := os.Stat(s.ws.Path(p.Path))
		switch {
		case err != nil:
			s.full = "newest log " + p.Path + " disappeared"
			return
		case !fi.ModTime().Equal(p.ModTime):
			s.noteLog(p.Path)
		}
	}
	if c := s.checkpoint; c != nil {
		if fi, err := os.Stat(s.ws.Path(c.Path)); err != nil || !fi.ModTime().Equal(c.ModTime) {
			s.noteCheckpoint(c.Path)
		}
	}
}

// incremental applies the changes noted since the previous scan.
func (s *Scanner) incremental() {
	if s.w == nil {
		s.full = "no inotify watcher"
		return
	}
	if err := s.barrier(); err != nil {
		s.logf("scan: %v; a change made just now may be seen one pulse late", err)
	}
	pending, lost := s.w.take()
	if lost != "" {
		s.full = "file events lost: " + lost
		return
	}
	rels := make([]string, 0, len(pending))
	ops := make(map[string]fsnotify.Op, len(pending))
	for abs, op := range pending {
		r := s.ws.Rel(abs)
		rels = append(rels, r)
		ops[r] = op
	}
	// Parents before children: a new theme folder is watched (and listed)
	// before its histories' events are looked at.
	sort.Strings(rels)
	for _, r := range rels {
		s.handle(r, ops[r])
		if s.full != "" {
			return
		}
	}
	for _, d := range smallDirs {
		if s.dirty[d] {
			s.readSmall(d)
		}
	}
}

// barrier waits until every event queued before it has been noted, using a
// dot-file in stats/ (or the root while stats/ does not exist).
func (s *Scanner) barrier() error {
	dir := workspace.StatsDir
	if _, ok := s.dirs[dir]; !ok {
		dir = ""
		if _, ok := s.dirs[dir]; !ok {
			return nil
		}
	}
	s.seq++
	return s.w.sync(s.ws.Path(dir), s.seq)
}

// handle applies one changed path, by what its folder holds.
func (s *Scanner) handle(rel string, op fsnotify.Op) {
	if _, ok := s.dirs[rel]; ok && op&(fsnotify.Remove|fsnotify.Rename) != 0 {
		s.full = "watched folder " + rel + " was removed or renamed"
		return
	}
	dir, name := path.Dir(rel), path.Base(rel)
	if dir == "." {
		dir = ""
	}
	k, ok := s.dirs[dir]
	if !ok {
		return
	}
	switch k {
	case kHistories:
		if workspace.IsLogName(name) {
			s.noteLog(rel)
		}
	case kCheckpoints:
		if workspace.IsCheckpointName(name) {
			s.noteCheckpoint(rel)
		}
	case kSmall:
		s.dirty[dir] = true
	case kRoot:
		switch rel {
		case workspace.StatsDir:
			s.addNew(rel, kStats)
			s.addNew(workspace.CheckpointsDir, kCheckpoints)
			for _, d := range []string{workspace.DeepWorkDir, workspace.CooldownDir, workspace.LockDir} {
				s.addNew(d, kSmall)
			}
		case workspace.ArtifactsDir:
			s.addNew(rel, kArtifacts)
			s.addNew(workspace.ThemeHistoriesDir, kSmall)
		case workspace.FeedbackboxDir, workspace.ThemeboxDir:
			s.addNew(rel, kSmall)
		}
	case kStats:
		switch rel {
		case workspace.CheckpointsDir:
			s.addNew(rel, kCheckpoints)
		case workspace.DeepWorkDir, workspace.CooldownDir, workspace.LockDir:
			s.addNew(rel, kSmall)
		}
	case kArtifacts:
		if rel == workspace.ThemeHistoriesDir {
			s.addNew(rel, kSmall)
		} else if _, ok := workspace.IDPrefix(name); ok {
			s.addNew(rel, kTheme)
		}
	case kTheme:
		switch name {
		case workspace.HistoriesDir:
			s.addNew(rel, kHistories)
		case workspace.SubthemesDir:
			s.addNew(rel, kSubthemes)
		}
	case kSubthemes:
		if _, ok := workspace.IDPrefix(name); ok {
			s.addNew(rel, kTheme)
		}
	}
}

// addNew watches a folder that appeared after the first scan and takes in
// what it already holds (it is new, so small).
func (s *Scanner) addNew(rel string, k dirKind) {
	if _, ok := s.dirs[rel]; ok || !s.isDir(rel) {
		return
	}
	var cands []workspace.FileStat
	switch k {
	case kTheme:
		s.addTheme(rel, &cands)
	case kHistories:
		s.addHistories(rel, &cands)
	case kSubthemes:
		s.watch(rel, kSubthemes)
		s.walkThemes(rel, &cands)
	case kArtifacts:
		s.watch(rel, kArtifacts)
		s.walkThemes(rel, &cands)
	case kCheckpoints:
		s.watch(rel, kCheckpoints)
		s.loadCheckpoints()
	case kSmall:
		s.watch(rel, kSmall)
		s.dirty[rel] = true
	default:
		s.watch(rel, k)
	}
	for _, c := range cands {
		s.noteLog(c.Rel)
	}
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

// snapshot copies the scanner's view, so the caller may keep it.
func (s *Scanner) snapshot(full bool, reason string) Snapshot {
	snap := Snapshot{
		RecentLogs:      append([]workspace.Proof(nil), s.recent...),
		ActiveDeepWork:  append([]workspace.DeepWorkFile(nil), s.dw.active...),
		InvalidDeepWork: append([]InvalidDeclaration(nil), s.dw.invalid...),
		ThemeRecordID:   s.themeID,
		ThemeRecords:    append([]string(nil), s.themes...),
		Feedback:        append([]InboxItem(nil), s.feedback...),
		Themebox:        append([]InboxItem(nil), s.themebox...),
		Restrictions:    append(append([]Marker(nil), s.cooldown...), s.lock...),
		FullScan:        full,
		Rescan:          reason,
	}
	if len(s.recent) > 0 {
		p := s.recent[0]
		snap.LastLog = &p
	}
	if s.intro != nil {
		p := *s.intro
		snap.LastIntrospection = &p
	}
	if s.checkpoint != nil {
		p := *s.checkpoint
		snap.LastCheckpoint = &p
	}
	if s.dw.completed != nil {
		c := *s.dw.completed
		snap.LastCompleted = &c
	}
	return snap
}
