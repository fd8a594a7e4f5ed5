package daemon

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/testutil"
)

// BenchmarkDaemonProcess is what a running watchdog costs the machine, next
// to BenchmarkSteadyPulse's pulse alone: the real `watchdog run` on the
// 100k-log history, pulsing every second with its page on (http.listen).
// "page" has a client do what the open page does (the status once, then
// the event stream, and the day strip each minute); "poll" reads
// /api/v1/status every second instead; "no_page" has no client. After its
// first pulses it is measured for a minute: the CPU time of all its
// threads (what its rusage adds up, read from /proc/PID/task/*/schedstat to
// the nanosecond) over the pulses its log counts. Everything the process
// does between pulses is in it: the runtime, the page's server, the log.
//
//	go test -run '^$' -bench DaemonProcess -benchtime 1x ./internal/daemon
//
// AIHEART_BENCH_WATCHDOG names a watchdog binary to measure instead of one
// built from this tree (a release build, another commit's);
// AIHEART_BENCH_SECONDS shortens or lengthens the minute.
func BenchmarkDaemonProcess(b *testing.B) {
	bin := os.Getenv("AIHEART_BENCH_WATCHDOG")
	if bin == "" {
		bin = filepath.Join(b.TempDir(), "watchdog")
		if err := testutil.Build("github.com/ai-heart/ai-heart/cmd/watchdog", bin); err != nil {
			b.Fatal(err)
		}
	}
	window := 60 * time.Second
	if s := os.Getenv("AIHEART_BENCH_SECONDS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 5 {
			b.Fatalf("AIHEART_BENCH_SECONDS=%q: want a whole number of seconds, at least 5", s)
		}
		window = time.Duration(n) * time.Second
	}
	root := benchHistory(b, 100_000)
	for _, page := range []string{"page", "poll", "no_page"} {
		b.Run(page, func(b *testing.B) {
			var cpu time.Duration
			pulses := 0
			for range b.N {
				c, n := measureProcess(b, bin, root, page, window)
				cpu += c
				pulses += n
			}
			b.ReportMetric(float64(cpu.Microseconds())/float64(pulses), "cpu-µs/pulse")
			b.ReportMetric(float64(pulses)/float64(b.N), "pulses")
		})
	}
}

// measureProcess runs one watchdog on root and returns the CPU time it
// used over window and the pulses in it.
func measureProcess(b *testing.B, bin, root, page string, window time.Duration) (time.Duration, int) {
	dir := b.TempDir()
	cfg := fmt.Sprintf("workspace: %s\nstate_dir: %s\npulse: {interval: 1s}\nschedule: {every: 0s}\nhttp: {listen: \"127.0.0.1:0\"}\n", root, filepath.Join(dir, "state"))
	if err := os.WriteFile(filepath.Join(dir, "watchdog.yaml"), []byte(cfg), 0o644); err != nil {
		b.Fatal(err)
	}
	cmd := exec.Command(bin, "run", "-c", filepath.Join(dir, "watchdog.yaml"), "--log-format", "json")
	cmd.Env = os.Environ()
	stderr, err := cmd.StderrPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	exited, quit := make(chan struct{}), make(chan struct{})
	b.Cleanup(func() {
		close(quit)
		cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-exited
		}
	})
	lines := make(chan map[string]any, 64)
	go func() {
		defer close(exited)
		defer close(lines)
		defer cmd.Wait()
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			var m map[string]any
			if json.Unmarshal(sc.Bytes(), &m) != nil {
				continue
			}
			select {
			case lines <- m:
			case <-quit:
				io.Copy(io.Discard, stderr)
				return
			}
		}
	}()
	// pulse waits for the n-th "pulse" line from now, with a deadline; it
	// returns the page's address when the log names it.
	addr := ""
	pulse := func(n int, within time.Duration) {
		deadline := time.After(within)
		for n > 0 {
			select {
			case m, ok := <-lines:
				if !ok {
					b.Fatal("the watchdog exited")
				}
				switch m["message"] {
				case "pulse":
					n--
				case "status page, /metrics and API listening":
					addr, _ = m["listen"].(string)
				}
			case <-deadline:
				b.Fatalf("no %d more pulses within %s", n, within)
			}
		}
	}
	// The first scan of 100k logs, and the pages given back after it.
	pulse(5, 2*time.Minute)
	stop := make(chan struct{})
	read := make(chan int, 1)
	if addr == "" {
		b.Fatal("the log never named the page's address")
	}
	switch page {
	case "page":
		go readPage("http://"+addr, stop, read)
	case "poll":
		go pollStatus("http://"+addr, stop, read)
	default:
		read <- -1
	}
	pulse(2, 10*time.Second) // the client is connected
	c0 := threadsCPU(b, cmd.Process.Pid)
	n := int(window / time.Second)
	pulse(n, window+30*time.Second)
	c1 := threadsCPU(b, cmd.Process.Pid)
	close(stop)
	if got := <-read; got >= 0 && got < n/2 {
		b.Fatalf("the %s client read %d updates in %d pulses", page, got, n)
	}
	return c1 - c0, n
}

// readPage does what the open page does: the status once, then the event
// stream, and the day strip every minute. It sends how many status events
// it read once stop closes.
func readPage(base string, stop <-chan struct{}, read chan<- int) {
	client := &http.Client{}
	get := func(path string, v any) {
		if resp, err := client.Get(base + path); err == nil {
			if v != nil {
				json.NewDecoder(resp.Body).Decode(v)
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
	}
	var status struct {
		Agents []struct {
			Agent string `json:"agent"`
		} `json:"agents"`
	}
	get("/api/v1/status", &status)
	day := ""
	if len(status.Agents) > 0 {
		day = "/api/v1/agents/" + url.PathEscape(status.Agents[0].Agent) + "/day"
	}
	resp, err := client.Get(base + "/api/v1/events")
	if err != nil {
		read <- 0
		return
	}
	events := make(chan struct{}, 1024)
	go func() {
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			if sc.Text() == "event: status" {
				select {
				case events <- struct{}{}:
				default:
				}
			}
		}
	}()
	strip := time.NewTicker(time.Minute)
	defer strip.Stop()
	n := 0
	for {
		select {
		case <-stop:
			resp.Body.Close()
			read <- n
			return
		case <-events:
			n++
		case <-strip.C:
			if day != "" {
				get(day, nil)
			}
		}
	}
}

// pollStatus reads /api/v1/status every second until stop closes, then
// sends how many times it did.
func pollStatus(base string, stop <-chan struct{}, read chan<- int) {
	client, n := &http.Client{Timeout: 5 * time.Second}, 0
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for {
		select {
		case <-stop:
			read <- n
			return
		case <-tick.C:
		}
		if resp, err := client.Get(base + "/api/v1/status"); err == nil {
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			n++
		}
	}
}

// threadsCPU is the CPU time every thread of pid has run, from the
// scheduler's own count.
func threadsCPU(b *testing.B, pid int) time.Duration {
	tasks, err := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/schedstat", pid))
	if err != nil || len(tasks) == 0 {
		b.Skipf("no /proc/%d/task/*/schedstat (%v): this kernel does not count per-thread CPU time", pid, err)
	}
	var sum time.Duration
	for _, t := range tasks {
		raw, err := os.ReadFile(t)
		if err != nil {
			continue // a thread that ended meanwhile
		}
		f := strings.Fields(string(raw))
		if len(f) == 0 {
			continue
		}
		ns, err := strconv.ParseInt(f[0], 10, 64)
		if err == nil {
			sum += time.Duration(ns)
		}
	}
	return sum
}
