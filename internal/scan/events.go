package scan

import (
	"path"
	"sort"
	"strings"

	"github.com/fsnotify/fsnotify"

	"github.com/ai-heart/ai-heart/internal/workspace"
)

// incremental and handle turn the inotify events of the watched folders into
// updates of the bookkeeping; barrier makes sure every event of the last
// writes has arrived first.

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
