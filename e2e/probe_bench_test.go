package e2e

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/testutil"
)

// The security probe's load figures, again, against the real watchdog:
// 1,000 live SSE clients on the window, and 20,000 idle connections, while
// the pulse (every 100ms) keeps its time and writes its state. Run with
//
//	go test ./e2e -run '^$' -bench ProbeLoad -benchtime 1x
//
// The metrics are the pulse's worst lateness over the run (max-late-ms), the
// pulses written while the load was held (pulses-held, 20 expected in 2 s),
// and how many clients the window was serving.
func BenchmarkProbeLoad(b *testing.B) {
	prlimit, err := exec.LookPath("prlimit")
	if err != nil {
		b.Skip("prlimit is not installed (Debian package util-linux)")
	}
	b.Run("sse-1000", func(b *testing.B) {
		for b.Loop() {
			probeLoad(b, prlimit, 1000, 1100, true)
		}
	})
	b.Run("idle-20000", func(b *testing.B) {
		// The clients need the descriptors of this process too: 20,000,
		// or as many as its hard limit leaves (the metric says how many).
		var lim syscall.Rlimit
		if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
			b.Fatal(err)
		}
		want := uint64(20000 + 512)
		if lim.Max < want {
			if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &syscall.Rlimit{Cur: want, Max: want}); err == nil {
				lim.Max = want
			}
		}
		lim.Cur = lim.Max
		if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
			b.Fatal(err)
		}
		conns := int(min(20000, lim.Max-512))
		for b.Loop() {
			probeLoad(b, prlimit, conns, 64, false)
		}
	})
}

func probeLoad(b *testing.B, prlimit string, conns, maxConns int, sse bool) {
	const held = 2 * time.Second
	addr := freeAddr(b)
	ws, cfg, _ := initWorkspace(b, fmt.Sprintf("name: probe\npulse: {interval: 100ms}\nschedule: {every: 0s}\nhttp: {listen: %q, max_connections: %d}\n", addr, maxConns))
	cmd := exec.Command(prlimit, "--nofile=8192:8192", filepath.Join(binDir, "watchdog"), "run", "-c", cfg, "--log-format", "json")
	var stderr syncBuf
	cmd.Stderr = &stderr
	testutil.Start(b, cmd)
	pulses := func() float64 { return counterOf(readState(b, ws), "pulses") }
	waitUntil(b, "a pulse", 10*time.Second, func() bool { return pulses() > 0 })

	var served atomic.Int64
	var mu sync.Mutex
	var open []net.Conn
	b.Cleanup(func() {
		mu.Lock()
		defer mu.Unlock()
		for _, c := range open {
			c.Close()
		}
	})
	path := "/healthz"
	if sse {
		path = "/api/v1/events"
	}
	var dialed sync.WaitGroup
	sem := make(chan struct{}, 256) // dial at most 256 at once
	for range conns {
		dialed.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			c, err := net.DialTimeout("tcp", addr, time.Second)
			if err != nil {
				return // past the kernel's accept queue: refused or timed out
			}
			mu.Lock()
			open = append(open, c)
			mu.Unlock()
			fmt.Fprintf(c, "GET %s HTTP/1.1\r\nHost: %s\r\n\r\n", path, addr)
			go func() {
				if resp, err := http.ReadResponse(bufio.NewReader(c), nil); err == nil && resp.StatusCode == http.StatusOK {
					served.Add(1) // an SSE stream stays open; a /healthz connection stays idle
				}
			}()
		})
	}
	dialed.Wait()
	want := int64(min(conns, maxConns))
	waitUntil(b, fmt.Sprintf("%d clients served", want), 60*time.Second, func() bool { return served.Load() >= want })
	p0 := pulses()
	time.Sleep(held) // the load is held; the pulses written meanwhile are the measure
	p1 := pulses()
	st := readState(b, ws)
	pulse, _ := st["pulse"].(map[string]any)
	late, _ := pulse["max_late_ms"].(float64)
	mu.Lock()
	b.ReportMetric(float64(len(open)), "connections")
	mu.Unlock()
	b.ReportMetric(float64(served.Load()), "served")
	b.ReportMetric(p1-p0, "pulses-held")
	b.ReportMetric(late, "max-late-ms")
	if p1-p0 < 10 {
		b.Errorf("only %v pulses in %s under load, want about 20", p1-p0, held)
	}
	if s := stderr.String(); strings.Contains(s, "too many open files") {
		b.Errorf("the watchdog ran out of descriptors:\n%s", s)
	}
}
