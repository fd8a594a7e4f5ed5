package daemon

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/ai-heart/ai-heart/internal/alert"
	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/delivery"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// TestFleet runs many agents with 1 s pulses in one process and reports pulse
// lateness and CPU. One agent's delivery fails every time; the others must
// not notice. Sizes: AIHEART_FLEET_AGENTS (50), AIHEART_FLEET_SECONDS (30) and
// AIHEART_FLEET_PULSE_SECONDS (1).
// It is skipped under -race and -short, where timings mean nothing; `make
// test` runs it on its own without the race detector.
func TestFleet(t *testing.T) {
	if raceEnabled || testing.Short() {
		t.Skip("timing test: run without -race and -short")
	}
	n, secs := envInt("AIHEART_FLEET_AGENTS", 50), envInt("AIHEART_FLEET_SECONDS", 30)
	pulse := envInt("AIHEART_FLEET_PULSE_SECONDS", 1) // wakeups every 2 pulses
	beats := secs / pulse
	root := t.TempDir()
	var yaml string
	yaml += fmt.Sprintf("pulse: {interval: %ds}\nschedule: {every: %ds}\n", pulse, 2*pulse)
	yaml += "circuit_breaker: {failures: 3, cooldown: 5s, max_cooldown: 20s}\nagents:\n"
	for i := 0; i < n; i++ {
		dir := filepath.Join(root, fmt.Sprintf("agent%02d", i))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		yaml += fmt.Sprintf("  - {name: agent%02d, workspace: %s}\n", i, dir)
	}
	cfg, err := config.Parse([]byte(yaml))
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	late := map[string][]time.Duration{}
	var failing = "agent00"
	nd := func(a config.Delivery, ws *workspace.Workspace) (delivery.Deliverer, error) {
		if filepath.Base(ws.Root) == failing {
			return &fakeDeliverer{method: config.DeliveryExec, deliver: func(ctx context.Context, p string) (delivery.Result, error) {
				return delivery.Result{ExitCode: 1}, fmt.Errorf("agent command: exit status 1")
			}}, nil
		}
		return delivery.NewInbox(ws), nil
	}
	var before syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &before)
	// Past the kernel's inotify limits (fs.inotify.max_user_instances is 128
	// by default: one per agent) agents fall back to polling, each with an
	// alert; count them.
	sink, err := alert.NewSink(zerolog.Nop(), "")
	if err != nil {
		t.Fatal(err)
	}
	var scanAlerts atomic.Int64
	sink.Subscribe(func(a alert.Alert) {
		if a.Check == "scan" {
			scanAlerts.Add(1)
		}
	})
	d, err := New(cfg, Options{Log: zerolog.Nop(), Alerts: sink, NewDeliverer: nd, Subscribers: []func(PulseEvent){func(e PulseEvent) {
		mu.Lock()
		late[e.Agent] = append(late[e.Agent], e.Started.Sub(e.Scheduled))
		mu.Unlock()
	}}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Duration(secs)*time.Second)
	defer cancel()
	wall := time.Now()
	d.Run(ctx)
	elapsed := time.Since(wall)
	var after syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &after)
	cpu := time.Duration(after.Utime.Nano()+after.Stime.Nano()-before.Utime.Nano()-before.Stime.Nano()) * time.Nanosecond

	var all []time.Duration
	for name, l := range late {
		if len(l) < beats-2 {
			t.Errorf("%s pulsed %d times in %ds at %ds pulses", name, len(l), secs, pulse)
		}
		all = append(all, l...)
	}
	if len(late) != n {
		t.Fatalf("%d agents pulsed, want %d", len(late), n)
	}
	sort.Slice(all, func(i, j int) bool { return all[i] < all[j] })
	p50, p99, max := all[len(all)/2], all[len(all)*99/100], all[len(all)-1]
	t.Logf("fleet: %d agents, %d pulses in %s; lateness p50 %s p99 %s max %s; CPU %s (%.1f%% of one core)",
		n, len(all), elapsed.Round(time.Millisecond), p50, p99, max, cpu.Round(time.Millisecond), 100*cpu.Seconds()/elapsed.Seconds())
	polling := 0
	for i := 0; i < n; i++ {
		if st, err := stateOf(cfg, filepath.Join(root, fmt.Sprintf("agent%02d", i))); err == nil && st.Chambers.Pulse.ScanFallback != "" {
			polling++
		}
	}
	t.Logf("fleet: %d agents polling after the inotify limit, %d scan alerts", polling, scanAlerts.Load())
	if int64(polling) != scanAlerts.Load() {
		t.Errorf("%d agents poll but %d scan alerts: a fallback went unannounced", polling, scanAlerts.Load())
	}
	if p99 > 100*time.Millisecond {
		t.Errorf("pulse lateness p99 = %s, want under 100ms", p99)
	}
	// The failing agent opened its breaker; a healthy one delivered normally.
	bad, err := stateOf(cfg, filepath.Join(root, failing))
	if beats/2 <= 4 {
		return // too few wakeups in the run to open a breaker
	}
	if err != nil || bad.Breaker.State == "closed" || bad.Counters.DeliveryFailures < 3 {
		t.Errorf("failing agent state = %+v / %v, want breaker open after 3+ failures", bad.Breaker, err)
	}
	good, err := stateOf(cfg, filepath.Join(root, "agent01"))
	if err != nil || good.Breaker.State != "closed" || good.Counters.Delivered < int64(beats/2-2) {
		t.Errorf("healthy agent state = %+v %+v / %v, want its wakeups delivered", good.Breaker, good.Counters, err)
	}
}

func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil && v > 0 {
		return v
	}
	return def
}
