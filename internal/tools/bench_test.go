package tools

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/lang"
	"github.com/ai-heart/ai-heart/internal/testutil"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// benchSize is a generated workspace: logs spread evenly over themes, plus
// one checkpoint file per ten logs.
type benchSize struct{ logs, themes int }

// benchSizes are 1k, 100k and 1M logs. The 1M workspace (about 4 GB of
// small files, a few minutes to generate once) is made only when
// AIHEART_BENCH_1M=1; -short keeps to 1k.
func benchSizes(b *testing.B) []benchSize {
	s := []benchSize{{1_000, 10}}
	if testing.Short() {
		return s
	}
	s = append(s, benchSize{100_000, 100})
	if os.Getenv("AIHEART_BENCH_1M") == "1" {
		s = append(s, benchSize{1_000_000, 1000})
	} else {
		b.Log("set AIHEART_BENCH_1M=1 for the 1M-log workspace")
	}
	return s
}

// benchBase is the first generated ID's time; generated IDs advance one
// minute per log, and benchmark calls use IDs after all of them.
var benchBase = time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)

// benchWorkspace returns the generated workspace of size s, cached under
// os.TempDir() by size so reruns skip generation.
func benchWorkspace(b *testing.B, s benchSize) *workspace.Workspace {
	b.Helper()
	root := filepath.Join(os.TempDir(), fmt.Sprintf("ai-heart-bench-%d-%d", s.logs, s.themes))
	done := filepath.Join(root, ".generated")
	if _, err := os.Stat(done); err != nil {
		os.RemoveAll(root)
		start := time.Now()
		if err := generate(root, s); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(done, nil, 0o644); err != nil {
			b.Fatal(err)
		}
		b.Logf("generated %d logs in %d themes in %s", s.logs, s.themes, time.Since(start).Round(time.Millisecond))
	}
	ws, err := workspace.New(root, time.UTC)
	if err != nil {
		b.Fatal(err)
	}
	return ws
}

// generate writes the files directly (no tools), in parallel per theme.
func generate(root string, s benchSize) error {
	return testutil.GenerateHistory(root, s.logs, s.themes, benchBase)
}

// benchTools points real-time Tools at ws with a fresh current ID after
// every generated one, and makes one writing call so the latest-proof index
// exists on disk (its one-time build from the history is not what is
// measured; a read-only call would rebuild it in memory every time).
func benchTools(b *testing.B, ws *workspace.Workspace) (*Tools, func()) {
	b.Helper()
	tl := &Tools{WS: ws, Thresholds: config.Defaults().Thresholds, Log: zerolog.Nop()}
	next := benchBase.AddDate(10, 0, 0).Add(time.Duration(time.Now().UnixNano()%1e6) * time.Second)
	rotate := func() {
		next = next.Add(time.Second)
		if err := ws.WriteCurrentID(workspace.NewID(next)); err != nil {
			b.Fatal(err)
		}
	}
	rotate()
	if _, err := call(tl, tl.Checkpoint, map[string]any{"current_activity": "warming the index"}); err != nil {
		b.Fatal(err)
	}
	return tl, rotate
}

// BenchmarkTools times one call of each writing/reading tool per workspace
// size; the cost must not grow with the history (1M within 2x of 1k).
func BenchmarkTools(b *testing.B) {
	for _, s := range benchSizes(b) {
		ws := benchWorkspace(b, s)
		theme := fmt.Sprintf("%s_theme%04d", workspace.NewID(benchBase), 0)
		logArgs := map[string]any{"activity_type": "creation", "activity_content": []any{"benchmark"},
			"theme_start_id": string(workspace.NewID(benchBase)), "theme_directory_part": strings.TrimPrefix(theme, string(workspace.NewID(benchBase))+"_")}
		b.Run(fmt.Sprintf("logs=%d/checkpoint", s.logs), func(b *testing.B) {
			tl, _ := benchTools(b, ws)
			a := map[string]any{"current_activity": "benchmarking"}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := call(tl, tl.Checkpoint, a); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("logs=%d/create_activity_log", s.logs), func(b *testing.B) {
			tl, rotate := benchTools(b, ws)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if i > 0 && i%workspace.MaxSequence == 0 {
					b.StopTimer()
					rotate()
					b.StartTimer()
				}
				if _, err := call(tl, tl.CreateActivityLog, logArgs); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("logs=%d/get_heartbeat_elapsed_time", s.logs), func(b *testing.B) {
			tl, _ := benchTools(b, ws)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := tl.GetHeartbeatElapsedTime(noInput{}); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("logs=%d/start_to_initialize", s.logs), func(b *testing.B) {
			benchStart(b, ws)
		})
	}
}

var (
	benchBinOnce sync.Once
	benchBin     string
	benchBinErr  error
)

// benchStart execs the real binary and times process start to the
// initialize reply; it must stay under 50 ms whatever the history size.
func benchStart(b *testing.B, ws *workspace.Workspace) {
	benchBinOnce.Do(func() {
		dir, err := os.MkdirTemp("", "mcp-heart-bench-")
		if err != nil {
			benchBinErr = err
			return
		}
		benchBin = filepath.Join(dir, "mcp-heart")
		out, err := exec.Command("go", "build", "-o", benchBin, "../../cmd/mcp-heart").CombinedOutput()
		if err != nil {
			benchBinErr = fmt.Errorf("build mcp-heart: %v\n%s", err, out)
		}
	})
	if benchBinErr != nil {
		b.Fatal(benchBinErr)
	}
	const initReq = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}` + "\n"
	var worst time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		cmd := exec.Command(benchBin, "--workspace", ws.Root)
		in, _ := cmd.StdinPipe()
		out, _ := cmd.StdoutPipe()
		start := time.Now()
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		if _, err := in.Write([]byte(initReq)); err != nil {
			b.Fatal(err)
		}
		line, err := bufio.NewReader(out).ReadString('\n')
		took := time.Since(start)
		if err != nil || !strings.Contains(line, `"protocolVersion"`) {
			b.Fatalf("initialize reply %q: %v", line, err)
		}
		b.StopTimer()
		worst = max(worst, took)
		in.Close()
		cmd.Wait()
		b.StartTimer()
	}
	b.ReportMetric(float64(worst.Microseconds())/1000, "worst-ms")
}

// BenchmarkToolsList times one tools/list request through the server, in
// process, from the raw request to the encoded reply, in each language: what
// every client pays when it lists the tools, without the pipe.
//
//	go test -run '^$' -bench ToolsList ./internal/tools
func BenchmarkToolsList(b *testing.B) {
	for _, l := range []lang.Lang{lang.English, lang.Japanese} {
		b.Run(string(l), func(b *testing.B) {
			ws, err := workspace.New(b.TempDir(), time.UTC)
			if err != nil {
				b.Fatal(err)
			}
			tl := &Tools{WS: ws, Thresholds: config.Defaults().Thresholds, Lang: l, Log: zerolog.Nop()}
			s := NewServer(tl, "bench")
			req := json.RawMessage(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
			var size int
			for b.Loop() {
				out, err := json.Marshal(s.HandleMessage(context.Background(), req))
				if err != nil || !bytes.Contains(out, []byte(`"create_activity_log"`)) {
					b.Fatalf("tools/list = %.200s, %v", out, err)
				}
				size = len(out)
			}
			b.ReportMetric(float64(size), "bytes")
		})
	}
}
