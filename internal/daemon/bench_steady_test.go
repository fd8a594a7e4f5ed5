package daemon

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/testutil"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// BenchmarkSteadyPulse is one whole pulse of the daemon (ID, pause, scan,
// hooks, checks, state file and its published copy, day strip) on a
// long history, after the first scan: what every pulse of a running
// watchdog costs. "quiet" is a pulse with nothing new in the workspace
// (most pulses); "writing" has the agent add a checkpoint line before each
// pulse (a busy agent). Each reports its allocations per pulse, so the next
// feature shows its cost here.
//
// Those pulses run back to back, with the process's threads and the CPU's
// caches still warm from the one before. "spaced" is the quiet pulse as a
// running watchdog has it, after an idle gap (100 ms; a second costs the
// same): on this project's virtual machine the same pulse then costs about
// twice the CPU time, and so do three bare file replaces in a program of
// a dozen lines. BenchmarkDaemonProcess measures the whole process.
//
//	go test -run '^$' -bench SteadyPulse -benchtime 1000x ./internal/daemon
//
// The histories are generated once and cached under os.TempDir().
func BenchmarkSteadyPulse(b *testing.B) {
	for _, logs := range []int{1_000, 100_000} {
		for _, mode := range []string{"quiet", "writing", "spaced"} {
			b.Run(fmt.Sprintf("%s/%dk", mode, logs/1000), func(b *testing.B) {
				gap := time.Duration(0)
				if mode == "spaced" {
					gap = 100 * time.Millisecond
				}
				benchSteady(b, logs, mode == "writing", gap)
			})
		}
	}
}

// benchHistory returns a cached generated workspace of logs activity logs
// in logs/1000 themes (at least 10).
func benchHistory(b *testing.B, logs int) string {
	themes := max(10, logs/1000)
	root := filepath.Join(os.TempDir(), fmt.Sprintf("aiheart-daemon-bench-%d-%d-v1", logs, themes))
	if _, err := os.Stat(root + ".ready"); err == nil {
		return root
	}
	os.RemoveAll(root)
	if err := testutil.GenerateHistory(root, logs, themes, time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(root+".ready", nil, 0o644); err != nil {
		b.Fatal(err)
	}
	return root
}

func benchSteady(b *testing.B, logs int, writing bool, gap time.Duration) {
	root := benchHistory(b, logs)
	cfg, err := config.Parse([]byte("pulse: {interval: 1s}\nschedule: {every: 0s}\n"))
	if err != nil {
		b.Fatal(err)
	}
	cfg.Workspace, cfg.Name, cfg.StateRoot = root, "bench", b.TempDir()
	ws, _ := workspace.New(root, nil)
	a, err := newAgent(cfg.AgentConfigs()[0], cfg.Timezone, cfg.Location(), Options{Log: zerolog.Nop()}, time.Now())
	if err != nil {
		b.Fatal(err)
	}
	var added []string
	b.Cleanup(func() {
		a.ws.ClosePulseFiles()
		a.scanner.Close()
		for _, rel := range added { // keep the cached history as generated
			os.Remove(ws.Path(rel))
		}
	})
	b.ReportAllocs()
	for range 3 { // the first scan, and the pulses that settle the levels
		a.pulseOnce(time.Now())
	}
	var before, after, w0, w1 runtime.MemStats
	var agentAllocs, agentBytes uint64 // the agent's writes, not the pulse's
	runtime.ReadMemStats(&before)
	cpu, n := time.Duration(0), 0
	for b.Loop() {
		if writing {
			b.StopTimer()
			runtime.ReadMemStats(&w0)
			p, err := ws.AddCheckpoint(a.currentID(), time.Now(), "working")
			if err != nil {
				b.Fatal(err)
			}
			if len(added) == 0 || added[len(added)-1] != p.Path {
				added = append(added, p.Path)
			}
			runtime.ReadMemStats(&w1)
			agentAllocs += w1.Mallocs - w0.Mallocs
			agentBytes += w1.TotalAlloc - w0.TotalAlloc
			b.StartTimer()
		}
		if gap > 0 {
			b.StopTimer()
			time.Sleep(gap)
			b.StartTimer()
		}
		c := cpuTime()
		a.pulseOnce(time.Now())
		cpu += cpuTime() - c
		n++
	}
	runtime.ReadMemStats(&after)
	// CPU time (every thread's, the inotify reader's too) varies less than
	// the wall clock on a shared machine, where fsync waits on others' I/O.
	b.ReportMetric(float64(cpu.Microseconds())/float64(n), "cpu-µs/pulse")
	b.ReportMetric(float64(after.Mallocs-before.Mallocs-agentAllocs)/float64(n), "allocs/pulse")
	b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc-agentBytes)/float64(n), "B/pulse")
}

// BenchmarkSpacingFloor is the yardstick for "spaced": no watchdog at all,
// three bare atomic replaces of a 5 KB file (a temp file written, then
// renamed over the name), as a pulse once replaced its three files, back to
// back and after an idle gap. What the gap adds here is the machine's (cold
// caches, the file system's work on a file that has gone to disk), not the
// watchdog's. "kept" writes the three through workspace.WritePulseFile (two
// files kept open, exchanged with the name), as the pulse now writes two
// of them. "wake" is the CPU time of a process that only sleeps 100 ms
// and wakes, per wake: what any daemon pays the runtime and the kernel for
// each pulse before doing anything.
//
//	go test -run '^$' -bench SpacingFloor -benchtime 300x ./internal/daemon
func BenchmarkSpacingFloor(b *testing.B) {
	b.Run("wake", func(b *testing.B) {
		c := cpuTime()
		for b.Loop() {
			time.Sleep(100 * time.Millisecond)
		}
		b.ReportMetric(float64((cpuTime()-c).Microseconds())/float64(b.N), "cpu-µs/wake")
	})
	for _, gap := range []time.Duration{0, 100 * time.Millisecond} {
		name := "back_to_back"
		if gap > 0 {
			name = "spaced"
		}
		b.Run(name, func(b *testing.B) {
			dir := b.TempDir()
			data := make([]byte, 5000)
			replace := func(i int, name string) {
				tmp := filepath.Join(dir, fmt.Sprintf(".t%d", i))
				if err := os.WriteFile(tmp, data, 0o644); err != nil {
					b.Fatal(err)
				}
				if err := os.Rename(tmp, filepath.Join(dir, name)); err != nil {
					b.Fatal(err)
				}
			}
			for i, n := range []string{"a", "b", "c"} {
				replace(i, n)
			}
			cpu, n := time.Duration(0), 0
			for b.Loop() {
				if gap > 0 {
					b.StopTimer()
					time.Sleep(gap)
					b.StartTimer()
				}
				c := cpuTime()
				for i, name := range []string{"a", "b", "c"} {
					replace(i, name)
				}
				cpu += cpuTime() - c
				n++
			}
			b.ReportMetric(float64(cpu.Microseconds())/float64(n), "cpu-µs/round")
		})
		b.Run("kept/"+name, func(b *testing.B) {
			ws, err := workspace.New(b.TempDir(), nil)
			if err != nil {
				b.Fatal(err)
			}
			ws.KeepPulseFiles()
			b.Cleanup(ws.ClosePulseFiles)
			data := make([]byte, 5000)
			names := []string{"stats/a", "stats/b", "stats/c"}
			for _, n := range names {
				if err := ws.WritePulseFile(n, data); err != nil {
					b.Fatal(err)
				}
			}
			cpu, n := time.Duration(0), 0
			for b.Loop() {
				if gap > 0 {
					b.StopTimer()
					time.Sleep(gap)
					b.StartTimer()
				}
				c := cpuTime()
				for _, name := range names {
					if err := ws.WritePulseFile(name, data); err != nil {
						b.Fatal(err)
					}
				}
				cpu += cpuTime() - c
				n++
			}
			b.ReportMetric(float64(cpu.Microseconds())/float64(n), "cpu-µs/round")
		})
	}
}
