package daemon

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/ai-heart/ai-heart/internal/checks"
	"github.com/ai-heart/ai-heart/internal/day"
	"github.com/ai-heart/ai-heart/internal/progress"
	"github.com/ai-heart/ai-heart/internal/state"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// workMemory is what the agent's work showed around its wakeups. Under
// agent.mu.
type workMemory struct {
	workBefore []progress.Print   // as the wakeup in flight was delivered
	workSince  time.Time          // that delivery
	unchanged  int                // answered wakeups in a row that changed nothing
	recentWork []state.WakeupWork // newest last, at most keptWork
}

const keptWork = 10

// watches are the folders whose changes are the agent's progress: the
// workspace's artifacts and projects, and progress.paths.
func (a *agent) watches() []progress.Watch {
	w := progress.Workspace(a.ws.Root)
	for _, p := range a.cfg.Progress.Paths {
		w = append(w, progress.Watch{Dir: p})
	}
	return w
}

// watched names the folders for people: workspace-relative where they are
// in it.
func (a *agent) watched() []string {
	var out []string
	for _, w := range a.watches() {
		if rel, ok := strings.CutPrefix(w.Dir, a.ws.Root+"/"); ok {
			out = append(out, rel)
		} else {
			out = append(out, w.Dir)
		}
	}
	return out
}

// workBefore fingerprints the work as a wakeup is delivered (beside the
// pulse: the delivery's own goroutine).
func (a *agent) noteWorkBefore(ctx context.Context, now time.Time) {
	if a.cfg.Progress.After <= 0 {
		return
	}
	p := progress.TakeAll(ctx, a.watches())
	a.mu.Lock()
	a.workBefore, a.workSince = p, now
	a.mu.Unlock()
}

// noteWorkAfter compares the work once the wakeup delivered is answered
// (an exec run's end, a turn's end): a change resets the count of answers
// that changed nothing, none adds one. A ghost reply does neither: saying
// there is nothing to do is the idle chamber's answer, not a claim of work.
func (a *agent) noteWorkAfter(ctx context.Context, source string, at time.Time, ghost bool) *progress.Change {
	a.mu.Lock()
	before, since := a.workBefore, a.workSince
	a.workBefore = nil
	a.mu.Unlock()
	if before == nil || ghost {
		return nil
	}
	c := progress.CompareAll(ctx, before, progress.TakeAll(ctx, a.watches()))
	w := state.WakeupWork{Time: at, Source: source, Files: c.Files, Commits: c.Commits, Added: c.Added, Removed: c.Removed, Said: a.saidSince(since)}
	a.mu.Lock()
	switch {
	case c.Any():
		a.unchanged = 0
		a.counters.WorkChanged++
	case a.strictAt(at):
		// Heads-down in strict deep work, as declared: an answer then is
		// no claim of work (inactivity waits for the deadline too).
		a.counters.WorkUnchanged++
	default:
		a.unchanged++
		a.counters.WorkUnchanged++
	}
	a.recentWork = append(a.recentWork, w)
	if len(a.recentWork) > keptWork {
		a.recentWork = a.recentWork[len(a.recentWork)-keptWork:]
	}
	a.mu.Unlock()
	a.wrote(at, "day strip", a.day.Add(day.Mark{Time: at, Kind: day.KindWork, Source: source, Message: workWord(c, w.Said)}))
	return &c
}

// strictAt reports strict deep work declared and before its deadline at t,
// as the last pulse saw it. Called with a.mu held.
func (a *agent) strictAt(t time.Time) bool {
	for _, f := range a.snap.ActiveDeepWork {
		if d := f.Decl; d.Mode == workspace.Strict && (d.Deadline.IsZero() || t.Before(d.Deadline)) {
			return true
		}
	}
	return false
}

// workWord is a wakeup's work in a line: what changed, then what the agent
// said of it.
func workWord(c progress.Change, said string) string {
	s := "nothing changed"
	if c.Any() {
		s = fmt.Sprintf("%d files", c.Files)
		if c.Commits > 0 {
			s += fmt.Sprintf(", %d commits (+%d -%d)", c.Commits, c.Added, c.Removed)
		}
	}
	if said != "" {
		s += `; said: "` + said + `"`
	}
	return s
}

// saidSince is the first line of the activity content of the agent's
// newest activity log written since since ("" for none).
func (a *agent) saidSince(since time.Time) string {
	l, err := a.ws.ReadLatest()
	if err != nil || l.Log == nil || l.Log.ModTime.Before(since) {
		return ""
	}
	b, err := a.ws.ReadFile(l.Log.Path, 16<<10)
	if err != nil {
		return ""
	}
	return firstContentLine(b)
}

// firstContentLine is the first line under an activity log's content
// heading (its list mark dropped), else its first line that is no heading.
func firstContentLine(b []byte) string {
	sc := bufio.NewScanner(bytes.NewReader(b))
	inContent, first := false, ""
	for sc.Scan() {
		l := strings.TrimSpace(sc.Text())
		switch {
		case l == "":
		case strings.HasPrefix(l, "#"):
			inContent = strings.Contains(l, "content") || strings.Contains(l, "内容")
		default:
			l = workspace.Clip(strings.TrimSpace(strings.TrimPrefix(l, "- ")), 160)
			if inContent {
				return l
			}
			if first == "" {
				first = l
			}
		}
	}
	return first
}

// progressNow is what the checks and the state file hear of the work.
// Called with a.mu held.
func (a *agent) progressNow() (checks.Progress, *state.Progress) {
	after := a.cfg.Progress.After
	if after <= 0 {
		return checks.Progress{}, nil
	}
	watched := a.watched()
	return checks.Progress{After: after, Unchanged: a.unchanged, Watched: watched},
		&state.Progress{Watched: watched, After: after, Unchanged: a.unchanged, Recent: append([]state.WakeupWork(nil), a.recentWork...)}
}
