package scan

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"sort"

	"github.com/ai-heart/ai-heart/internal/workspace"
)

// The bookkeeping of logs and checkpoints: the newest few of each, kept up
// to date from events without listing a history folder again.

// sortStats orders files newest modification time first, a tie by the
// greater path, as noteLog orders the logs it holds.
func sortStats(fs []workspace.FileStat) {
	sort.SliceStable(fs, func(i, j int) bool { return workspace.Newer(fs[i].ModTime, fs[i].Rel, fs[j].ModTime, fs[j].Rel) })
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
		return workspace.Newer(f.ModTime, f.Rel, o.ModTime, o.Rel)
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
		return workspace.Newer(out[i].ModTime, out[i].Path, out[j].ModTime, out[j].Path)
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
