package tools

import (
	"strings"
	"sync"
	"time"

	"github.com/ai-heart/ai-heart/internal/checks"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// saidOnce remembers, for this session (one mcp-heart process, one
// client's session), when a standing notice was said in full: the
// introspection notice stands for a whole stretch of work, and said on
// every checkpoint and log it was most of what the agent read. Once per
// level and stretch is enough; later replies carry a one-line reminder,
// and the status always gives it in full.
type saidOnce struct {
	mu sync.Mutex
	at map[string]time.Time // by check, level and stretch
}

// once is notices with each introspection notice already said in full
// this level and stretch (since the latest introspection log) shortened to
// a reminder of when it was said.
func (t *Tools) once(now time.Time, latest workspace.Latest, notices []string) []string {
	var stretch time.Time
	if in := latest.Introspection; in != nil {
		stretch = in.ModTime
	}
	t.said.mu.Lock()
	defer t.said.mu.Unlock()
	out := make([]string, 0, len(notices))
	for _, n := range notices {
		tag, _, ok := strings.Cut(n, " ")
		if !ok || noticeCheck(n) != checks.Introspection {
			out = append(out, n)
			continue
		}
		key := tag + " " + stretch.UTC().Format(time.RFC3339Nano)
		at, said := t.said.at[key]
		if !said {
			if t.said.at == nil {
				t.said.at = map[string]time.Time{}
			}
			t.said.at[key] = now
			out = append(out, n)
			continue
		}
		out = append(out, tag+" "+checks.Introspection+": "+t.trf("Still stands (said in full at %s).", at.In(t.WS.Loc).Format("15:04:05")))
	}
	return out
}
