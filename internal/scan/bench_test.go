package scan_test

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/checks"
	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/scan"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// Benchmarks prove docs/design.md section 6 "cost that does not grow with history": a pulse
// after the first scan costs about the same at 1k, 100k and 1M logs.
//
//	go test -run '^$' -bench . -benchtime 2000x ./internal/scan
//	AIHEART_BENCH_1M=1 go test -run '^$' -bench . -benchtime 2000x -timeout 30m ./internal/scan
//	AIHEART_BENCH_1M=1 go test -run TestPeakRSS1M -v ./internal/scan
//
// Generated workspaces are cached under os.TempDir() by size, so reruns
// skip the generation (1M files take a minute or two to create).

type size struct {
	name   string
	logs   int
	themes int
}

var sizes = []size{{"1k", 1_000, 10}, {"100k", 100_000, 100}, {"1M", 1_000_000, 1000}}

const env1M = "AIHEART_BENCH_1M"

// contentTail is how many of each theme's newest logs hold text; older ones
// are empty files, which the scanner never opens (it reads only the greatest
// names), so the tree is cheap to make and to keep.
const contentTail = 32

var genEpoch = time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)

func skip1M(tb testing.TB, sz size) {
	if sz.logs >= 1_000_000 && os.Getenv(env1M) == "" {
		tb.Skipf("set %s=1 to run the 1M-log size", env1M)
	}
}

// benchWorkspace returns a cached generated workspace of sz: sz.logs
// activity logs spread evenly over sz.themes themes (one log a minute,
// every 5th an introspection) and one checkpoint per 10 logs.
func benchWorkspace(tb testing.TB, sz size) *workspace.Workspace {
	tb.Helper()
	root := filepath.Join(os.TempDir(), fmt.Sprintf("aiheart-bench-%d-%d-v1", sz.logs, sz.themes))
	ready := root + ".ready"
	ws, err := workspace.New(root, time.UTC)
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := os.Stat(ready); err == nil {
		return ws
	}
	os.RemoveAll(root)
	if err := ws.EnsureSkeleton(); err != nil {
		tb.Fatal(err)
	}
	start := time.Now()
	theme := func(k int) string {
		return fmt.Sprintf("artifacts/%s_t%04d/histories", workspace.NewID(genEpoch.Add(time.Duration(k)*time.Second)), k)
	}
	for k := 0; k < sz.themes; k++ {
		if err := os.MkdirAll(ws.Path(theme(k)), 0o755); err != nil {
			tb.Fatal(err)
		}
	}
	perTheme := sz.logs / sz.themes
	var wg sync.WaitGroup
	errc := make(chan error, 4)
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := w; i < sz.logs; i += 4 {
				k, n := i%sz.themes, i/sz.themes
				id := workspace.NewID(genEpoch.Add(time.Duration(i) * time.Minute))
				var data []byte
				if n >= perTheme-contentTail {
					typ := "thinking"
					if i%5 == 0 {
						typ = "introspection"
					}
					data = []byte("# Activity log: " + string(id) + "\n\n## Activity type\n" + typ + "\n\n## Activity content\n- generated\n")
				}
				if err := os.WriteFile(ws.Path(theme(k), string(id)+".md"), data, 0o644); err != nil {
					errc <- err
					return
				}
				if i%10 == 0 {
					var cp []byte
					if i >= sz.logs-10*contentTail {
						cp = []byte("12:00:00 generated\n")
					}
					if err := os.WriteFile(ws.Path(workspace.CheckpointsDir, string(id)+".txt"), cp, 0o644); err != nil {
						errc <- err
						return
					}
				}
			}
		}(w)
	}
	wg.Wait()
	close(errc)
	if err := <-errc; err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(ready, nil, 0o644); err != nil {
		tb.Fatal(err)
	}
	tb.Logf("generated %d logs in %d themes under %s in %s", sz.logs, sz.themes, root, time.Since(start).Round(time.Millisecond))
	return ws
}

func BenchmarkFirstScan(b *testing.B) {
	for _, sz := range sizes {
		b.Run(sz.name, func(b *testing.B) {
			skip1M(b, sz)
			ws := benchWorkspace(b, sz)
			var closing time.Duration
			b.ResetTimer()
			for b.Loop() {
				s := scan.NewScanner(ws)
				snap, err := s.Scan()
				if err != nil || snap.LastLog == nil || snap.LastIntrospection == nil || snap.LastCheckpoint == nil {
					b.Fatalf("Scan() = %+v, %v", snap, err)
				}
				// Closing an inotify instance costs the kernel time per
				// watch; it is not part of a scan.
				b.StopTimer()
				t := time.Now()
				s.Close()
				closing += time.Since(t)
				b.StartTimer()
			}
			b.ReportMetric(float64(closing.Milliseconds())/float64(b.N), "close-ms/op")
		})
	}
}

func BenchmarkSteadyPulse(b *testing.B) {
	cfg := checks.Config{Thresholds: config.Defaults().Thresholds, Restrictions: config.Defaults().Restrictions, Loc: time.UTC}
	for _, sz := range sizes {
		b.Run(sz.name, func(b *testing.B) {
			skip1M(b, sz)
			ws := benchWorkspace(b, sz)
			s := scan.NewScanner(ws)
			s.Logf = b.Logf
			if _, err := s.Scan(); err != nil {
				b.Fatal(err)
			}
			var written []string
			b.Cleanup(func() {
				s.Close()
				for _, rel := range written { // keep the cached tree as generated
					os.Remove(ws.Path(rel))
				}
			})
			logDir := fmt.Sprintf("artifacts/%s_t%04d/histories", workspace.NewID(genEpoch), 0)
			pulseEpoch := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
			var st checks.State
			full := 0
			i := 0
			b.ResetTimer()
			for b.Loop() {
				id := workspace.NewID(pulseEpoch.Add(time.Duration(i) * time.Second))
				rel := workspace.CheckpointsDir + "/" + string(id) + ".txt"
				data := "12:00:00 pulse\n"
				if i%2 == 1 {
					rel = logDir + "/" + string(id) + ".md"
					data = "# Activity log\n\n## Activity type\nthinking\n"
				}
				// The agent's write is not the pulse's cost (creating a file
				// in a bigger folder costs the file system a little more).
				b.StopTimer()
				if err := os.WriteFile(ws.Path(rel), []byte(data), 0o644); err != nil {
					b.Fatal(err)
				}
				written = append(written, rel)
				b.StartTimer()
				snap, err := s.Scan()
				if err != nil {
					b.Fatal(err)
				}
				// File times are coarse (a few ms), so a log and a checkpoint
				// written in one tick tie: check each kind saw its own.
				p := snap.LastCheckpoint
				if i%2 == 1 {
					p = snap.LastLog
				}
				if p == nil || p.ID != id {
					b.Fatalf("pulse %d: newest %s is %v, want ID %s", i, rel, p, id)
				}
				if snap.FullScan {
					full++
				}
				_, st = checks.Evaluate(time.Now(), snap, cfg, st)
				i++
			}
			b.ReportMetric(float64(full), "fullscans")
		})
	}
}
