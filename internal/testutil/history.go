package testutil

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"time"

	"github.com/ai-heart/ai-heart/internal/workspace"
)

// GenerateHistory writes a workspace at root with logs activity logs spread
// evenly over themes themes, one a minute from base (every 7th an
// introspection), and one checkpoint file per ten logs: the history of a
// long-running agent, for benchmarks. It writes no latest-proof index.
func GenerateHistory(root string, logs, themes int, base time.Time) error {
	s := struct{ logs, themes int }{logs, themes}
	ws, err := workspace.New(root, time.UTC)
	if err != nil {
		return err
	}
	if err := ws.EnsureSkeleton(); err != nil {
		return err
	}
	per := s.logs / s.themes
	var wg sync.WaitGroup
	errs := make(chan error, s.themes)
	sem := make(chan struct{}, runtime.NumCPU()*2)
	for th := 0; th < s.themes; th++ {
		wg.Add(1)
		go func(th int) {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			hist := ws.Path(fmt.Sprintf("artifacts/%s_theme%04d/histories", workspace.NewID(base), th))
			if err := os.MkdirAll(hist, 0o755); err != nil {
				errs <- err
				return
			}
			for i := 0; i < per; i++ {
				n := th*per + i
				id := workspace.NewID(base.Add(time.Duration(n) * time.Minute))
				typ := workspace.Thinking
				if n%7 == 0 {
					typ = workspace.Introspection
				}
				data := workspace.ActivityLog{Type: typ, Content: []string{"generated log " + fmt.Sprint(n)}}.Format(id, "")
				if err := os.WriteFile(filepath.Join(hist, string(id)+".md"), data, 0o644); err != nil {
					errs <- err
					return
				}
				if n%10 == 0 {
					cp := ws.Path(workspace.CheckpointsDir, string(id)+".txt")
					if err := os.WriteFile(cp, []byte("00:00:00 generated\n"), 0o644); err != nil {
						errs <- err
						return
					}
				}
			}
		}(th)
	}
	wg.Wait()
	close(errs)
	return <-errs
}
