package daemon

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/rs/zerolog"

	"github.com/ai-heart/ai-heart/internal/alert"
	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/delivery"
	"github.com/ai-heart/ai-heart/internal/state"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// fakeDeliverer is a Deliverer whose behaviour the test sets.
type fakeDeliverer struct {
	method  string
	deliver func(ctx context.Context, prompt string) (delivery.Result, error)
}

var _ delivery.Deliverer = (*fakeDeliverer)(nil)

func (f *fakeDeliverer) Deliver(ctx context.Context, p string) (delivery.Result, error) {
	return f.deliver(ctx, p)
}
func (f *fakeDeliverer) Method() string { return f.method }
func (f *fakeDeliverer) Traits() delivery.Traits {
	return delivery.Traits{RunIsTheWork: f.method == config.DeliveryExec, Holds: f.method == config.DeliveryTmux}
}

// testConfig is a one-agent config on a fresh workspace with fast timings.
func testConfig(t *testing.T) *config.Config {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "ai-works")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	c, err := config.Parse([]byte(`
pulse: {interval: 100ms}
thresholds: {inactivity_warning: 2s, inactivity_error: 4s, introspection: 30s}
schedule: {every: 0s}
`))
	if err != nil {
		t.Fatal(err)
	}
	c.Workspace = dir
	c.Name = "tester"
	return c
}

// alertsOf reads the alerts file as (check, level) pairs.
func alertsOf(t *testing.T, path string) []map[string]any {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	var out []map[string]any
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("alert line %q is not JSON: %v", sc.Text(), err)
		}
		out = append(out, m)
	}
	return out
}

type harness struct {
	t      *testing.T
	cfg    *config.Config
	alerts string
	d      *Daemon
	cancel context.CancelFunc
	done   chan struct{}
	mu     sync.Mutex
	pulses []PulseEvent
}

// start runs a daemon on cfg until the test ends. Inside a synctest bubble
// (fake time) the scanner polls, since a goroutine blocked on inotify would
// keep the bubble's clock from advancing.
func start(t *testing.T, cfg *config.Config, nd func(config.Delivery, *workspace.Workspace) (delivery.Deliverer, error)) *harness {
	t.Helper()
	return startWith(t, cfg, Options{NewDeliverer: nd})
}

// startFake is start for tests run under synctest.Test.
func startFake(t *testing.T, cfg *config.Config, nd func(config.Delivery, *workspace.Workspace) (delivery.Deliverer, error)) *harness {
	t.Helper()
	return startWith(t, cfg, Options{NewDeliverer: nd, ScanPoll: true})
}

func startWith(t *testing.T, cfg *config.Config, o Options) *harness {
	t.Helper()
	h := &harness{t: t, cfg: cfg, alerts: filepath.Join(t.TempDir(), "alerts.jsonl"), done: make(chan struct{})}
	sink, err := alert.NewSink(zerolog.Nop(), h.alerts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sink.Close() })
	o.Log, o.Alerts = zerolog.Nop(), sink
	o.Subscribers = append(o.Subscribers, func(e PulseEvent) {
		h.mu.Lock()
		h.pulses = append(h.pulses, e)
		h.mu.Unlock()
	})
	d, err := New(cfg, o)
	if err != nil {
		t.Fatal(err)
	}
	h.d = d
	ctx, cancel := context.WithCancel(context.Background())
	h.cancel = cancel
	go func() { defer close(h.done); d.Run(ctx) }()
	t.Cleanup(h.stop)
	return h
}

func (h *harness) stop() {
	h.cancel()
	<-h.done
}

func (h *harness) state() state.State {
	h.t.Helper()
	s, err := h.tryState()
	if err != nil {
		h.t.Fatalf("read state: %v", err)
	}
	return s
}

func (h *harness) tryState() (state.State, error) {
	return state.Load(h.cfg.AgentConfigs()[0].StateDir())
}

func (h *harness) waitFor(what string, timeout time.Duration, cond func() bool) {
	h.t.Helper()
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		if cond() {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	h.t.Fatalf("timed out after %s waiting for %s", timeout, what)
}

func (h *harness) hasAlert(check, level string) bool {
	for _, a := range alertsOf(h.t, h.alerts) {
		if a["check"] == check && a["level"] == level {
			return true
		}
	}
	return false
}

func TestPulseMintsIDAndWritesState(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig(t)
		h := startFake(t, cfg, nil)
		ws, _ := workspace.New(cfg.Workspace, nil)
		time.Sleep(250 * time.Millisecond) // pulses at 0, 100 and 200 ms
		synctest.Wait()
		if _, err := ws.ReadCurrentID(); err != nil {
			t.Fatalf("current ID: %v", err)
		}
		st := h.state()
		if !st.Running(time.Now()) || st.Agent != "tester" || st.HeartbeatID == "" || st.Counters.Pulses != 3 {
			t.Fatalf("state = %+v, want a running state of tester with an ID and 3 pulses", st)
		}
		if st.Thresholds.InactivityWarning.D() != 2*time.Second {
			t.Fatalf("state thresholds = %+v, want the config's (mcp-heart reads them)", st.Thresholds)
		}
		h.stop()
		if st := h.state(); st.Counters.Pulses != 3 {
			t.Fatalf("state after stop = %+v, want the 3 pulses kept", st.Counters)
		}
	})
}

func TestRestartDoesNotFireStaleAlarms(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig(t)
		ws, _ := workspace.New(cfg.Workspace, nil)
		// An old log from a previous run, an hour ago: older than every threshold.
		old := time.Now().Add(-time.Hour)
		theme := workspace.Theme{StartID: workspace.NewID(old), Part: "t"}
		if err := os.MkdirAll(ws.Path(theme.HistoriesDir()), 0o755); err != nil {
			t.Fatal(err)
		}
		p := ws.Path(theme.HistoriesDir(), string(workspace.NewID(old))+".md")
		if err := os.WriteFile(p, workspace.ActivityLog{Type: workspace.Thinking, Content: []string{"x"}}.Format(workspace.NewID(old), ""), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, old, old); err != nil {
			t.Fatal(err)
		}
		h := startFake(t, cfg, nil)
		time.Sleep(1950 * time.Millisecond) // just under the 2s warning, counted from the start
		synctest.Wait()
		for _, a := range alertsOf(t, h.alerts) {
			if a["check"] == "inactivity" || a["check"] == "introspection" {
				t.Fatalf("stale alarm after start: %v", a)
			}
		}
		// Past the warning threshold measured from the start, it does fire.
		time.Sleep(200 * time.Millisecond)
		synctest.Wait()
		if !h.hasAlert("inactivity", "warning") {
			t.Fatal("no inactivity warning 2.15s after the start")
		}
	})
}

func TestWakeupsAreSerializedAndCoalesced(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig(t)
		cfg.Schedule.Every = config.Duration(20 * time.Millisecond)
		var calls, running, maxRunning atomic.Int32
		release := make(chan struct{})
		nd := func(config.Delivery, *workspace.Workspace) (delivery.Deliverer, error) {
			return &fakeDeliverer{method: config.DeliveryExec, deliver: func(ctx context.Context, p string) (delivery.Result, error) {
				calls.Add(1)
				n := running.Add(1)
				if n > maxRunning.Load() {
					maxRunning.Store(n)
				}
				defer running.Add(-1)
				select {
				case <-release:
				case <-ctx.Done():
				}
				return delivery.Result{Reply: "done"}, nil
			}}, nil
		}
		h := startFake(t, cfg, nd)
		time.Sleep(500 * time.Millisecond) // 25 wakeups fall due while the first hangs
		synctest.Wait()
		if c := calls.Load(); c != 1 {
			t.Fatalf("deliveries while one hangs = %d, want 1", c)
		}
		close(release)
		time.Sleep(100 * time.Millisecond) // 5 more wakeups, none hanging now
		synctest.Wait()
		h.stop()
		st := h.state()
		if c := calls.Load(); c < 4 {
			t.Fatalf("deliveries after the release = %d, want the schedule going again", c)
		}
		if maxRunning.Load() != 1 {
			t.Fatalf("max wakeups in flight = %d, want 1", maxRunning.Load())
		}
		if st.Counters.Coalesced < 20 {
			t.Fatalf("coalesced = %d, want the 24 wakeups due during the hang counted", st.Counters.Coalesced)
		}
	})
}

// TestHangingAgentNeverDelaysThePulse: while every delivery hangs until its
// timeout, the pulses keep their exact interval (fake time makes any wait for
// a delivery show as a gap of the delivery's length).
func TestHangingAgentNeverDelaysThePulse(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig(t)
		cfg.Schedule.Every = config.Duration(50 * time.Millisecond)
		cfg.CircuitBreaker = config.CircuitBreaker{Failures: 2, Cooldown: config.Duration(time.Hour), MaxCooldown: config.Duration(2 * time.Hour)}
		hang := func(config.Delivery, *workspace.Workspace) (delivery.Deliverer, error) {
			return &fakeDeliverer{method: config.DeliveryExec, deliver: func(ctx context.Context, p string) (delivery.Result, error) {
				select {
				case <-time.After(1200 * time.Millisecond):
					return delivery.Result{}, errors.New("agent command timed out after 1.2s")
				case <-ctx.Done():
					return delivery.Result{}, ctx.Err()
				}
			}}, nil
		}
		h := startFake(t, cfg, hang)
		time.Sleep(3 * time.Second)
		synctest.Wait()
		h.stop()
		h.mu.Lock()
		defer h.mu.Unlock()
		if len(h.pulses) != 31 {
			t.Fatalf("pulses in 3s at 100ms = %d, want 31 (at 0, 100ms, ... 3s)", len(h.pulses))
		}
		for i := 1; i < len(h.pulses); i++ {
			if g := h.pulses[i].Started.Sub(h.pulses[i-1].Started); g != 100*time.Millisecond {
				t.Fatalf("pulse %d came %s after the previous one, want exactly the 100ms interval", i, g)
			}
		}
		st := h.state()
		if st.Counters.DeliveryFailures != 2 || st.Breaker.State != "open" {
			t.Fatalf("after two timeouts: failures %d breaker %q, want 2 and open", st.Counters.DeliveryFailures, st.Breaker.State)
		}
		if !h.hasAlert("circuit_breaker", "warning") {
			t.Fatal("no circuit_breaker alert when it opened")
		}
	})
}

func TestGhostRepliesLeaveNoTrace(t *testing.T) {
	echo, err := exec.LookPath("echo")
	if err != nil {
		t.Skip("no echo binary")
	}
	for _, tc := range []struct {
		name, reply string
		ghost       bool
	}{
		{"idle token", "[IDLE]", true},
		{"heartbeat ok", "HEARTBEAT_OK", true},
		{"real reply", "I wrote a poem", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := testConfig(t)
			cfg.Schedule.Every = config.Duration(100 * time.Millisecond)
			cfg.Agent = config.Delivery{Delivery: config.DeliveryExec, Command: []string{echo, tc.reply}, Timeout: config.Duration(5 * time.Second)}
			h := start(t, cfg, nil)
			h.waitFor("three deliveries", 5*time.Second, func() bool { s, err := h.tryState(); return err == nil && s.Counters.Delivered >= 3 })
			h.stop()
			st := h.state()
			files, _ := filepath.Glob(filepath.Join(cfg.Workspace, "stats", "wakeups", "*.jsonl"))
			if tc.ghost {
				if len(files) != 0 || st.Counters.Ghosts < 3 {
					t.Fatalf("ghost reply: transcripts %v, ghosts %d; want none written and 3+ counted", files, st.Counters.Ghosts)
				}
				return
			}
			if len(files) != 1 || st.Counters.Ghosts != 0 {
				t.Fatalf("real reply: transcripts %v, ghosts %d", files, st.Counters.Ghosts)
			}
			b, _ := os.ReadFile(files[0])
			if !strings.Contains(string(b), tc.reply) {
				t.Fatalf("transcript %q lacks the reply", b)
			}
		})
	}
}

// TestStateCarriesNotices: the state file holds the notices the next
// heartbeat would carry, whatever the delivery (mcp-heart reads them there).
func TestStateCarriesNotices(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig(t) // inactivity warning after 2s
		rec := &recorder{method: config.DeliveryExec}
		h := startFake(t, cfg, rec.factory)
		time.Sleep(1900 * time.Millisecond)
		synctest.Wait()
		if n := h.state().Notices; len(n) != 0 {
			t.Fatalf("notices before any warning = %q, want none", n)
		}
		time.Sleep(300 * time.Millisecond)
		synctest.Wait()
		n := h.state().Notices
		if len(n) != 1 || !strings.Contains(n[0], "checkpoint") {
			t.Fatalf("notices after the inactivity warning = %q, want its advice", n)
		}
	})
}

// TestSweepsStaleTempFiles: a temp file a killed writer left an hour ago is
// swept and counted; a fresh one (a write in progress) and the agent's own
// files stay.
func TestSweepsStaleTempFiles(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig(t)
		ws, _ := workspace.New(cfg.Workspace, nil)
		if err := ws.EnsureSkeleton(); err != nil {
			t.Fatal(err)
		}
		now := time.Now()
		for name, age := range map[string]time.Duration{
			".current_heartbeat_id.txt1234567890123456789": 2 * time.Hour,
			".watchdog_state.json9876543210987654321":      time.Minute,
			".my-notes.md": 2 * time.Hour,
		} {
			p := ws.Path(workspace.StatsDir, name)
			if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
				t.Fatal(err)
			}
			os.Chtimes(p, now.Add(-age), now.Add(-age))
		}
		h := startFake(t, cfg, nil)
		time.Sleep(150 * time.Millisecond)
		synctest.Wait()
		if n := h.state().Counters.SweptTempFiles; n != 1 {
			t.Fatalf("swept_temp_files = %d, want 1", n)
		}
		for name, want := range map[string]bool{".current_heartbeat_id.txt1234567890123456789": false, ".watchdog_state.json9876543210987654321": true, ".my-notes.md": true} {
			if _, err := os.Stat(ws.Path(workspace.StatsDir, name)); (err == nil) != want {
				t.Errorf("%s present = %v, want %v", name, err == nil, want)
			}
		}
	})
}
