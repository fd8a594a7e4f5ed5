package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/ai-heart/ai-heart/internal/testutil"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// BenchmarkFirstReplies measures what an agent client waits for when it
// starts mcp-heart, through a real stdio client against the real binary:
// initialize, tools/list, the first tool call and a second one, at 1k and
// 100k activity logs. index=none has no latest-proof index, as an old
// system's workspace or a fresh clone has before the watchdog's first pulse;
// index=kept has the one the watchdog and every writing call keep.
//
//	go test -run '^$' -bench FirstReplies -benchtime 10x ./cmd/mcp-heart
func BenchmarkFirstReplies(b *testing.B) {
	for _, size := range []struct{ logs, themes int }{{1_000, 10}, {100_000, 100}} {
		for _, index := range []string{"none", "kept"} {
			b.Run(fmt.Sprintf("%dlogs/index=%s", size.logs, index), func(b *testing.B) {
				benchFirstReplies(b, size.logs, size.themes, index == "kept")
			})
		}
	}
}

func benchFirstReplies(b *testing.B, logs, themes int, kept bool) {
	root := filepath.Join(os.TempDir(), fmt.Sprintf("ai-heart-firstreplies-%d", logs))
	if _, err := os.Stat(filepath.Join(root, ".generated")); err != nil {
		os.RemoveAll(root)
		if err := testutil.GenerateHistory(root, logs, themes, time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)); err != nil {
			b.Fatal(err)
		}
		os.WriteFile(filepath.Join(root, ".generated"), nil, 0o644)
	}
	ws, _ := workspace.New(root, time.UTC)
	if err := ws.WriteCurrentID(workspace.NewID(time.Now())); err != nil {
		b.Fatal(err)
	}
	os.Remove(ws.Path(workspace.LatestFile))
	if kept {
		if err := ws.UpdateLatest(func(*workspace.Latest) {}); err != nil {
			b.Fatal(err)
		}
	}
	var initT, listT, firstT, secondT time.Duration
	for b.Loop() {
		c, err := client.NewStdioMCPClient(bin(), nil, "--workspace", root)
		if err != nil {
			b.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		req := mcp.InitializeRequest{}
		req.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
		req.Params.ClientInfo = mcp.Implementation{Name: "bench", Version: "1"}
		t0 := time.Now()
		if _, err := c.Initialize(ctx, req); err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		if _, err := c.ListTools(ctx, mcp.ListToolsRequest{}); err != nil {
			b.Fatal(err)
		}
		t2 := time.Now()
		call := mcp.CallToolRequest{}
		call.Params.Name = "get_heartbeat_elapsed_time"
		if res, err := c.CallTool(ctx, call); err != nil || res.IsError {
			b.Fatalf("first call: %v %+v", err, res)
		}
		t3 := time.Now()
		if res, err := c.CallTool(ctx, call); err != nil || res.IsError {
			b.Fatalf("second call: %v %+v", err, res)
		}
		t4 := time.Now()
		cancel()
		c.Close()
		initT += t1.Sub(t0)
		listT += t2.Sub(t1)
		firstT += t3.Sub(t2)
		secondT += t4.Sub(t3)
	}
	n := float64(b.N)
	b.ReportMetric(float64(initT.Microseconds())/n/1000, "init-ms")
	b.ReportMetric(float64(listT.Microseconds())/n/1000, "list-ms")
	b.ReportMetric(float64(firstT.Microseconds())/n/1000, "first-call-ms")
	b.ReportMetric(float64(secondT.Microseconds())/n/1000, "second-call-ms")
}
