package scan

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

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
	// fallback is why this scanner polls for good: the kernel's inotify
	// limit was reached. Sticky, so a full workspace is not re-watched (and
	// the limit hit again) every pulse.
	fallback string
	addWatch func(path string) error // nil: the watcher's Add (tests fake the kernel's limit)
	seq      int                     // barrier file counter

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
	if s.Poll || s.fallback != "" {
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
		// Removing inotify watches takes the kernel time per watch
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
	if !s.Poll && s.fallback == "" { // polling lists everything on every scan instead
		if w, err := newWatcher(); err != nil {
			s.full = err.Error()
			if limitReached(err) {
				s.fallBack(fmt.Sprintf("%v (fs.inotify.max_user_instances)", err))
			} else {
				s.logf("scan: %v; every scan will list the history", err)
			}
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
	add := s.w.add
	if s.addWatch != nil {
		add = s.addWatch
	}
	err := add(s.ws.Path(rel))
	if errors.Is(err, fs.ErrNotExist) {
		return
	}
	if err != nil {
		if limitReached(err) && s.fallback == "" {
			s.fallBack(fmt.Sprintf("watch %s: %v (fs.inotify.max_user_watches)", rel, err))
			return
		}
		if s.full == "" {
			s.full = fmt.Sprintf("watch %s: %v (see fs.inotify.max_user_watches)", rel, err)
			s.logf("scan: %s; the next scan lists the history again", s.full)
		}
		return
	}
	s.dirs[rel] = k
}

// limitReached reports whether err is one of the kernel's inotify limits:
// watches (ENOSPC) or instances (EMFILE).
func limitReached(err error) bool {
	return errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EMFILE)
}

// fallBack stops watching for good and polls: every scan lists the
// workspace. Nothing goes unseen, each pulse just costs more; Fallback
// tells the daemon, which alerts.
func (s *Scanner) fallBack(why string) {
	s.fallback = why
	s.full = ""
	if s.w != nil {
		go s.w.close()
		s.w = nil
	}
	s.logf("scan: inotify limit reached: %s; listing %s on every scan instead", why, s.ws.Root)
}

// Fallback is why the scanner polls instead of following the workspace
// with inotify ("" while it follows it, or when Poll was asked for).
func (s *Scanner) Fallback() string { return s.fallback }

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
