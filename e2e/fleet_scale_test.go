package e2e

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/fleet"
	"github.com/ai-heart/ai-heart/internal/testutil"
)

// TestE2EFleetScale measures a fleet on one Mosquitto and prints figures; it
// asserts only that every agent arrives and stays online. It runs only with
// AIHEART_FLEET_SCALE=1 (minutes of CPU). Sizes: AIHEART_SCALE_PROCS (10)
// watchdog processes of AIHEART_SCALE_AGENTS (100) agents, pulses of
// AIHEART_SCALE_PULSE (10s), measured over AIHEART_SCALE_SECONDS (60).
func TestE2EFleetScale(t *testing.T) {
	if os.Getenv("AIHEART_FLEET_SCALE") == "" || testing.Short() {
		t.Skip("measurement: set AIHEART_FLEET_SCALE=1")
	}
	procs, per := envInt(t, "AIHEART_SCALE_PROCS", 10), envInt(t, "AIHEART_SCALE_AGENTS", 100)
	pulse := envDuration(t, "AIHEART_SCALE_PULSE", 10*time.Second)
	window := time.Duration(envInt(t, "AIHEART_SCALE_SECONDS", 60)) * time.Second
	total := procs * per
	b := testutil.Mosquitto(t, nil)
	m := config.MQTT{Broker: b.URL, TopicPrefix: "heart", KeepAlive: config.Duration(30 * time.Second)}

	// The view in this process times each state from its pulse to its
	// arrival; `watchdog fleet` is run beside it for its memory.
	var mu sync.Mutex
	var measuring bool
	var lat []time.Duration
	v := fleet.NewView(fleet.ViewOptions{Topics: fleet.Topics{Prefix: "heart"}, OnChange: func(mb fleet.Member) {
		d := time.Since(mb.Time)
		mu.Lock()
		if measuring && mb.Online {
			lat = append(lat, d)
		}
		mu.Unlock()
	}})
	ctx, cancel := context.WithCancel(context.Background())
	sub, err := fleet.Subscribe(ctx, m, v, zerolog.Nop())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); <-sub.Done() })
	view := freeAddr(t)
	fv := exec.Command(filepath.Join(binDir, "watchdog"), "fleet", "--mqtt", b.URL, "--http", view, "--log-format", "json")
	testutil.Start(t, fv)

	var pids []int
	var logs []*lockedBuffer
	for p := 0; p < procs; p++ {
		root := t.TempDir()
		body := fmt.Sprintf("pulse: {interval: %s}\nschedule: {every: 0s}\nmqtt: {broker: %q}\nagents:\n", pulse, b.URL)
		for a := 0; a < per; a++ {
			dir := filepath.Join(root, fmt.Sprintf("p%02da%03d", p, a))
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			body += fmt.Sprintf("  - {name: %s, workspace: %s}\n", filepath.Base(dir), dir)
		}
		cfg := filepath.Join(root, "watchdog.yaml")
		writeConfig(t, cfg, body)
		cmd := exec.Command(filepath.Join(binDir, "watchdog"), "run", "-c", cfg, "--log-format", "json")
		stderr := &lockedBuffer{}
		cmd.Stderr = stderr
		testutil.Start(t, cmd)
		pids, logs = append(pids, cmd.Process.Pid), append(logs, stderr)
	}
	waitUntil(t, fmt.Sprintf("all %d agents in the view", total), 2*pulse+60*time.Second, func() bool { return len(v.Members()) == total })
	time.Sleep(pulse) // one more round: start-up over

	cpu0 := map[int]time.Duration{b.PID(): cpuOf(t, b.PID())}
	for _, pid := range pids {
		cpu0[pid] = cpuOf(t, pid)
	}
	fv0 := cpuOf(t, fv.Process.Pid)
	mu.Lock()
	measuring = true
	mu.Unlock()
	start := time.Now()
	time.Sleep(window)
	mu.Lock()
	measuring = false
	samples := append([]time.Duration(nil), lat...)
	mu.Unlock()
	elapsed := time.Since(start)
	pct := func(d time.Duration) float64 { return 100 * d.Seconds() / elapsed.Seconds() }

	broker := cpuOf(t, b.PID()) - cpu0[b.PID()]
	var wdTotal, wdMax time.Duration
	for _, pid := range pids {
		d := cpuOf(t, pid) - cpu0[pid]
		wdTotal += d
		wdMax = max(wdMax, d)
	}
	fvCPU := cpuOf(t, fv.Process.Pid) - fv0
	sort.Slice(samples, func(i, j int) bool { return samples[i] < samples[j] })
	if len(samples) == 0 {
		t.Fatal("no states arrived while measuring")
	}
	offline := 0
	for _, mb := range v.Members() {
		if !mb.Online {
			offline++
		}
	}
	fvStatus := statusOf(view)
	polling := 0
	for _, l := range logs {
		polling += strings.Count(l.String(), `"check":"scan"`)
	}
	t.Logf("fleet scale: %d agents in %d processes, %s pulses, one Mosquitto, measured %s", total, procs, pulse, elapsed.Round(time.Second))
	t.Logf("  pulse -> view latency over %d states: p50 %s p99 %s max %s", len(samples),
		samples[len(samples)/2].Round(10*time.Microsecond), samples[len(samples)*99/100].Round(10*time.Microsecond), samples[len(samples)-1].Round(10*time.Microsecond))
	t.Logf("  CPU: broker %.2f%% of a core; watchdogs %.2f%% together (%.2f%% the busiest); fleet view %.2f%%",
		pct(broker), pct(wdTotal), pct(wdMax), pct(fvCPU))
	t.Logf("  fleet view (watchdog fleet): RSS %s, peak %s, %d agents on its page; this test's view: %d offline",
		procField(t, fv.Process.Pid, "VmRSS"), procField(t, fv.Process.Pid, "VmHWM"), len(fvStatus), offline)
	t.Logf("  inotify: %d agents fell back to polling, each with a scan alert (fs.inotify.max_user_instances %s)", polling, readTrim("/proc/sys/fs/inotify/max_user_instances"))
	if offline > 0 || len(fvStatus) != total {
		t.Errorf("%d agents offline, %d on the fleet page; want all %d online", offline, len(fvStatus), total)
	}
}

func envInt(t testing.TB, name string, def int) int {
	s := os.Getenv(name)
	if s == "" {
		return def
	}
	n, err := strconv.Atoi(s)
	if err != nil || n <= 0 {
		t.Fatalf("%s=%q: want a positive integer", name, s)
	}
	return n
}

// cpuOf is a process's user+system CPU time so far.
func cpuOf(t testing.TB, pid int) time.Duration {
	d, ok := testutil.CPUTime(pid)
	if !ok {
		t.Fatalf("no CPU time for %d", pid)
	}
	return d
}

func procField(t testing.TB, pid int, key string) string {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return "?"
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, key+":"); ok {
			return strings.TrimSpace(v)
		}
	}
	return "?"
}

func readTrim(path string) string {
	b, _ := os.ReadFile(path)
	return strings.TrimSpace(string(b))
}
