package progress

import (
	"context"
	"path/filepath"
	"strings"
)

// Watch is one folder whose changes are the agent's progress.
type Watch struct {
	Dir  string
	Skip Skip
}

// Workspace is what is watched of a workspace out of the box: its
// artifacts and projects (GEMINI.md's homes of the agent's work), less the
// agent's own records there: theme records (artifacts/theme_histories)
// and activity logs (each theme folder's histories/). Its stats, boxes and
// docs are the watchdog's or the person's.
func Workspace(root string) []Watch {
	return []Watch{
		{Dir: filepath.Join(root, "artifacts"), Skip: ownRecords},
		{Dir: filepath.Join(root, "projects")},
	}
}

// ownRecords skips, under artifacts/, the agent's activity logs and theme
// records: writing them is saying, not working.
func ownRecords(rel string, dir bool) bool {
	if !dir {
		return false
	}
	return rel == "theme_histories" || strings.Count(rel, "/") == 1 && strings.HasSuffix(rel, "/histories")
}

// TakeAll fingerprints every folder watched.
func TakeAll(ctx context.Context, ws []Watch) []Print {
	out := make([]Print, len(ws))
	for i, w := range ws {
		out[i] = Take(ctx, w.Dir, w.Skip)
	}
	return out
}

// CompareAll sums what changed in each folder between two TakeAll of the
// same watches.
func CompareAll(ctx context.Context, before, after []Print) Change {
	var c Change
	for i := range after {
		if i < len(before) && before[i].Dir == after[i].Dir {
			c = c.Add(Compare(ctx, before[i], after[i]))
		}
	}
	return c
}
