//go:build soak

package soak

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/testutil"
)

var binDir string

func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == agentMode {
		os.Exit(agentMain(os.Args[2:]))
	}
	os.Exit(testutil.RunWithBinaries(m, &binDir, "github.com/ai-heart/ai-heart/cmd/watchdog", "github.com/ai-heart/ai-heart/cmd/mcp-heart"))
}

// soak is one soak's world: its folders, the watchdog of the moment, and
// what the monitors saw.
type soak struct {
	t                *testing.T
	seed             uint64
	rng              *rand.Rand
	dur, hour, pulse time.Duration
	errAfter         time.Duration // inactivity_error
	begin            time.Time

	run, disk, ws, stateDir, cfgPath, alerts, addr string
	capLimit                                       int
	agentDir                                       string // the agent's folder in state_dir
	broker                                         *testutil.Broker
	diskNote                                       string // why the full disk is not a tmpfs, if so

	wd     *testutil.Proc
	wdN    int
	wdStop chan struct{} // ends the monitors of this watchdog process
	done   chan struct{} // the soak is over

	mu      sync.Mutex
	pulses  []pulseRec
	scans   []scanRec
	mem     []memRec
	chaos   []chaosRec
	killed  map[int]bool // agent leaders alive at a kill -9
	known   map[int]bool // every agent run's process group seen
	kills   []time.Time
	spells  [][2]time.Time // full disks
	paused  [][2]time.Time
	outages [][2]time.Time // broker
}

type chaosRec struct {
	At     time.Time `json:"at"`
	Kind   string    `json:"kind"`
	Detail string    `json:"detail,omitempty"`
}

func (s *soak) note(kind, detail string) {
	s.mu.Lock()
	s.chaos = append(s.chaos, chaosRec{At: time.Now(), Kind: kind, Detail: detail})
	s.mu.Unlock()
	s.t.Logf("%7.1fs %s %s", time.Since(s.begin).Seconds(), kind, detail)
}

func TestSoak(t *testing.T) {
	dur := 10 * time.Minute
	if v := os.Getenv("SOAK_DURATION"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d < 30*time.Second {
			t.Fatalf("SOAK_DURATION %q: want a Go duration of 30s or more", v)
		}
		dur = d
	}
	seed := uint64(time.Now().UnixNano())
	if v := os.Getenv("SOAK_SEED"); v != "" {
		n, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			t.Fatalf("SOAK_SEED %q: %v", v, err)
		}
		seed = n
	}
	fmt.Printf("soak: seed %d (SOAK_SEED=%d to replay the timetable), duration %s\n", seed, seed, dur)
	// An agent hour: a week in ten minutes, never shorter than 3.5 s (the
	// agent's start, mcp-heart's and a pulse must fit well inside one).
	hour := max(dur/168, 3500*time.Millisecond)
	s := &soak{t: t, seed: seed, rng: rand.New(rand.NewPCG(seed, 42)), dur: dur, hour: hour, pulse: hour / 4,
		errAfter: 2 * hour, killed: map[int]bool{}, known: map[int]bool{}, capLimit: 5000, done: make(chan struct{})}
	s.setup()
	t.Cleanup(func() { // whatever of the runs is left: their groups
		s.mu.Lock()
		defer s.mu.Unlock()
		for g := range s.known {
			_ = syscall.Kill(-g, syscall.SIGKILL)
		}
	})
	s.begin = time.Now()
	s.startWatchdog()
	go s.scanLoop()
	s.drive()
	s.stopWatchdog()
	close(s.done)
	s.judge()
	if t.Failed() { // the small disk is unmounted at the end: keep what it held
		_ = exec.Command("cp", "-a", s.agentDir, filepath.Join(s.run, "final-state")).Run()
	}
}

func (s *soak) setup() {
	t := s.t
	root := t.TempDir()
	// The run's records outlive a failed soak, to be read.
	run, err := os.MkdirTemp("", "soak-run-")
	if err != nil {
		t.Fatal(err)
	}
	s.run = run
	t.Cleanup(func() {
		if !t.Failed() {
			os.RemoveAll(run)
			return
		}
		fmt.Printf("soak: FAILED; its records are kept in %s (the agents' ledger, the alerts, each watchdog's log, the final state)\n", run)
	})
	for _, d := range []string{s.run, filepath.Join(s.run, "ledger")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	s.disk = s.smallDisk(root)
	s.ws, s.stateDir = filepath.Join(s.disk, "ai-works"), filepath.Join(s.disk, "state")
	if out, err := exec.Command(filepath.Join(binDir, "watchdog"), "init", "--mcp-heart", filepath.Join(binDir, "mcp-heart"), s.ws).CombinedOutput(); err != nil {
		t.Fatalf("watchdog init: %v\n%s", err, out)
	}
	s.cfgPath, s.alerts, s.addr = filepath.Join(s.run, "watchdog.yaml"), filepath.Join(s.run, "alerts.jsonl"), freeAddr(t)
	s.broker = brokerOrNil(t)
	s.writeConfig()
	cfg, err := config.Load(s.cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	s.agentDir = cfg.AgentConfigs()[0].StateDir()
	s.writeSettings(agentSettings{Workspace: s.ws, MCPHeart: filepath.Join(binDir, "mcp-heart"), Seed: s.seed, Hour: s.hour.String()})
	// Paused until the theme the agent logs into exists (mcp-heart needs the
	// first watchdog's heartbeat ID for it).
	if out, err := exec.Command(filepath.Join(binDir, "watchdog"), "pause", "-c", s.cfgPath).CombinedOutput(); err != nil {
		t.Fatalf("pause: %v\n%s", err, out)
	}
}

func (s *soak) writeSettings(set agentSettings) {
	b, _ := json.Marshal(set)
	if err := os.WriteFile(filepath.Join(s.run, "agent.json"), b, 0o644); err != nil {
		s.t.Fatal(err)
	}
}

// writeConfig writes the watchdog's config, every duration in agent hours.
func (s *soak) writeConfig() {
	self, _ := os.Executable()
	h := func(f float64) string { return time.Duration(f * float64(s.hour)).Round(time.Millisecond).String() }
	mqtt := "{}"
	if s.broker != nil {
		mqtt = fmt.Sprintf("{broker: %q}", s.broker.URL)
	}
	body := fmt.Sprintf(`name: soak
workspace: %s
state_dir: %s
timezone: UTC
pulse: {interval: %s}
thresholds: {inactivity_warning: %s, inactivity_error: %s, introspection: %s}
schedule: {every: %s}
idle: {after: %s}
daily_cap: %d
budget: {daily_tokens: 50000000, daily_usd: 500}
circuit_breaker: {failures: 3, cooldown: %s, max_cooldown: %s}
recovery: {max_attempts: 3, max_wait_cycles: 5, resume_after: %s}
agent:
  delivery: exec
  client: claude-code
  output: stream-json
  command: [%q, %q, %q, "{prompt}"]
  timeout: %s
  stop_grace: 2s
prices: {soak-model: {input: 3, output: 15}}
alerts: {file: %s}
http: {listen: %q}
mqtt: %s
`, s.ws, s.stateDir, h(0.25), h(1), h(2), h(200), h(2), h(1), s.capLimit, h(3), h(12), h(8),
		self, agentMode, s.run, h(6), s.alerts, s.addr, mqtt)
	tmp := s.cfgPath + ".tmp"
	if err := os.WriteFile(tmp, []byte(body), 0o644); err != nil {
		s.t.Fatal(err)
	}
	if err := os.Rename(tmp, s.cfgPath); err != nil {
		s.t.Fatal(err)
	}
}

func (s *soak) startWatchdog() {
	s.wdN++
	logf, err := os.Create(filepath.Join(s.run, fmt.Sprintf("wd-%d.err", s.wdN)))
	if err != nil {
		s.t.Fatal(err)
	}
	cmd := exec.Command(filepath.Join(binDir, "watchdog"), "run", "-c", s.cfgPath, "--log-format", "json")
	cmd.Stdout, cmd.Stderr = logf, logf
	s.wd = testutil.Start(s.t, cmd)
	s.wdStop = make(chan struct{})
	go s.sseLoop(s.wd.Cmd.Process.Pid, s.wdStop)
	go s.memLoop(s.wd.Cmd.Process.Pid, s.wdStop)
	if s.wdN == 1 { // the agent learns the telemetry key the first watchdog made
		s.waitFor("the telemetry key", 10*time.Second, func() bool {
			b, err := os.ReadFile(filepath.Join(s.agentDir, "telemetry.key"))
			if err != nil || len(b) == 0 {
				return false
			}
			var set agentSettings
			raw, _ := os.ReadFile(filepath.Join(s.run, "agent.json"))
			json.Unmarshal(raw, &set)
			set.OTLP = "http://" + s.addr + "/otlp/soak/" + string(trimSpace(b)) + "/v1/logs"
			s.writeSettings(set)
			return true
		})
		s.waitFor("the first heartbeat ID", 20*time.Second, func() bool {
			_, err := os.Stat(filepath.Join(s.ws, "stats", "current_heartbeat_id.txt"))
			return err == nil
		})
		var set agentSettings
		raw, _ := os.ReadFile(filepath.Join(s.run, "agent.json"))
		json.Unmarshal(raw, &set)
		set.ThemeID = startTheme(s.t, s.ws)
		s.writeSettings(set)
		if out, err := exec.Command(filepath.Join(binDir, "watchdog"), "resume", "-c", s.cfgPath).CombinedOutput(); err != nil {
			s.t.Fatalf("resume: %v\n%s", err, out)
		}
	}
}

// kill9 ends the watchdog as a crash does, noting the runs in flight.
func (s *soak) kill9() {
	live := agentLeaders()
	_ = s.wd.Cmd.Process.Signal(syscall.SIGKILL)
	_ = s.wd.Wait()
	close(s.wdStop)
	s.mu.Lock()
	for _, p := range live {
		s.killed[p] = true
	}
	s.kills = append(s.kills, time.Now())
	s.mu.Unlock()
}

// stopWatchdog ends the last watchdog with SIGTERM: it must exit 0.
func (s *soak) stopWatchdog() {
	_ = s.wd.Signal(syscall.SIGTERM)
	err := s.wd.Wait()
	close(s.wdStop)
	if err != nil {
		s.t.Errorf("the last watchdog's exit after SIGTERM: %v", err)
	}
}

func (s *soak) waitFor(what string, timeout time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		if cond() {
			return true
		}
		time.Sleep(50 * time.Millisecond)
	}
	s.t.Logf("timed out after %s waiting for %s", timeout, what)
	return false
}

func freeAddr(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

func trimSpace(b []byte) []byte {
	for len(b) > 0 && (b[len(b)-1] == '\n' || b[len(b)-1] == ' ' || b[len(b)-1] == '\r') {
		b = b[:len(b)-1]
	}
	return b
}
