package daemon

import (
	"fmt"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// BenchmarkPulse is one whole pulse of the pulse chamber (ID, pause, scan,
// checks, renames, recovery, state file) on a small workspace: the daemon's
// own cost per pulse, which does not depend on the history's size (the
// scan's share is measured at 1k, 100k and 1M logs in internal/scan).
//
//	go test -run '^$' -bench Pulse -benchtime 2000x ./internal/daemon
func BenchmarkPulse(b *testing.B) {
	cfg, err := config.Parse([]byte("pulse: {interval: 1s}\nschedule: {every: 0s}\n"))
	if err != nil {
		b.Fatal(err)
	}
	cfg.Workspace, cfg.Name, cfg.StateRoot = b.TempDir(), "bench", b.TempDir() // a state folder, as config.Load gives
	ws, _ := workspace.New(cfg.Workspace, nil)
	start := time.Now().Add(-time.Hour)
	for i := range 20 {
		id := workspace.NewID(start.Add(time.Duration(i) * time.Minute))
		rel := fmt.Sprintf("artifacts/%s_bench/histories/%s.md", workspace.NewID(start), id)
		if err := ws.WriteFile(rel, workspace.ActivityLog{Type: workspace.Thinking, Content: []string{"x"}}.Format(id, "")); err != nil {
			b.Fatal(err)
		}
	}
	a, err := newAgent(cfg.AgentConfigs()[0], cfg.Timezone, cfg.Location(), Options{Log: zerolog.Nop()}, time.Now())
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { a.ws.ClosePulseFiles(); a.scanner.Close() })
	for b.Loop() {
		a.pulseOnce(time.Now())
	}
}
