package daemon

import (
	"context"
	"os"
	"path/filepath"
	"sync/atomic"
	"syscall"
	"testing"
	"testing/synctest"
	"time"

	"github.com/gofrs/flock"

	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/cost"
	"github.com/ai-heart/ai-heart/internal/delivery"
	"github.com/ai-heart/ai-heart/internal/state"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// stateOf reads the state file of cfg's agent whose workspace is ws.
func stateOf(cfg *config.Config, ws string) (state.State, error) {
	for _, a := range cfg.AgentConfigs() {
		if a.Workspace == ws {
			return state.Load(a.StateDir())
		}
	}
	return state.State{}, os.ErrNotExist
}

// TestOldStatePathsStopNothing: whatever the agent puts where the watchdog
// kept its state in the workspace (a lock it holds, FIFOs, a folder), the
// watchdog starts, pulses, holds its own lock and says the old files are
// not read.
func TestOldStatePathsStopNothing(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig(t)
		cfg.DailyCap = 3
		ws, _ := workspace.New(cfg.Workspace, nil)
		if err := os.MkdirAll(ws.Path("stats/day"), 0o755); err != nil {
			t.Fatal(err)
		}
		held := flock.New(ws.Path("stats/watchdog.lock"))
		if ok, err := held.TryLock(); !ok || err != nil {
			t.Fatalf("the agent's flock: %v, %v", ok, err)
		}
		defer held.Unlock()
		for _, f := range []string{"stats/cost.json", "stats/circuit_breaker.json", "stats/day/" + time.Now().Format(time.DateOnly) + ".jsonl"} {
			if err := syscall.Mkfifo(ws.Path(f), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.Mkdir(ws.Path("stats/daily_cap.json"), 0o755); err != nil {
			t.Fatal(err)
		}
		h := startFake(t, cfg, (&recorder{method: config.DeliveryTmux}).factory)
		time.Sleep(time.Second)
		synctest.Wait()
		dir := cfg.AgentConfigs()[0].StateDir()
		if !state.Held(dir) {
			t.Error("the watchdog does not hold its own lock")
		}
		h.stop()
		st := h.state()
		if st.Counters.Pulses < 5 {
			t.Fatalf("%d pulses in a second of 100ms pulses", st.Counters.Pulses)
		}
		if alertsWith(t, h.alerts, stateCheck, "watchdog migrate") != 1 {
			t.Errorf("want one state_dir alert telling how to migrate; alerts: %v", alertsOf(t, h.alerts))
		}
		for _, f := range []string{state.File, state.LockFile} {
			fi, err := os.Stat(filepath.Join(dir, f))
			if err != nil || fi.Mode().Perm() != 0o600 {
				t.Errorf("%s in the state folder: %v, %v; want mode 0600", f, fi, err)
			}
		}
		if fi, err := os.Stat(dir); err != nil || fi.Mode().Perm() != 0o700 {
			t.Errorf("state folder: %v, %v; want mode 0700", fi, err)
		}
		if _, err := state.ReadPublished(ws); err != nil {
			t.Errorf("no copy published for the agent's tools: %v", err)
		}
	})
}

// TestAgentCannotResetItsCap: an agent that rewrites the old daily cap file
// to "nothing used" after every run, removes the old ledger, then gets the
// config reloaded (its kill -HUP) and the watchdog restarted, gets no more
// runs than the cap: the count lives in the state folder and in memory.
func TestAgentCannotResetItsCap(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig(t)
		cfg.DailyCap = 2
		cfg.Schedule.Every = config.Duration(time.Second)
		ws, _ := workspace.New(cfg.Workspace, nil)
		var runs atomic.Int32
		forge := func() {
			today := time.Now().Format(time.DateOnly)
			_ = os.WriteFile(ws.Path("stats/daily_cap.json"), []byte(`{"day":"`+today+`","used":0,"limit":2}`), 0o644)
			_ = os.Remove(ws.Path("stats/cost.json"))
			_ = os.Remove(ws.Path("stats/circuit_breaker.json"))
		}
		nd := func(config.Delivery, *workspace.Workspace) (delivery.Deliverer, error) {
			return &fakeDeliverer{method: config.DeliveryExec, deliver: func(ctx context.Context, p string) (delivery.Result, error) {
				runs.Add(1)
				forge()
				return delivery.Result{Reply: "done"}, nil
			}}, nil
		}
		h := startFake(t, cfg, nd)
		time.Sleep(5 * time.Second)
		synctest.Wait()
		if err := h.d.Reload(context.Background(), cfg); err != nil {
			t.Fatal(err)
		}
		time.Sleep(5 * time.Second)
		synctest.Wait()
		h.stop()
		if n := runs.Load(); n != 2 {
			t.Fatalf("%d runs before the restart under daily_cap 2", n)
		}
		forge()
		h2 := startFake(t, cfg, nd)
		time.Sleep(5 * time.Second)
		synctest.Wait()
		h2.stop()
		if n := runs.Load(); n != 2 {
			t.Fatalf("%d runs after a forged cap file and a restart, under daily_cap 2", n)
		}
		if st := h2.state(); st.DailyCap.Used != 2 || st.Cost == nil || st.Cost.Today.By.Sum("").Runs != 2 {
			t.Fatalf("after the restart: cap %+v, cost %+v; want 2 used and 2 runs booked", st.DailyCap, st.Cost)
		}
	})
}

// TestLostLedgerIsAlerted: a ledger gone from the state folder between two
// runs (only the watchdog's user can remove it) starts again from 0, and
// the operator hears of it.
func TestLostLedgerIsAlerted(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig(t)
		cfg.Schedule.Every = config.Duration(time.Second)
		h := startFake(t, cfg, (&recorder{method: config.DeliveryExec}).factory)
		time.Sleep(3 * time.Second)
		synctest.Wait()
		h.stop()
		if err := os.Remove(filepath.Join(cfg.AgentConfigs()[0].StateDir(), cost.File)); err != nil {
			t.Fatal(err)
		}
		h2 := startFake(t, cfg, (&recorder{method: config.DeliveryExec}).factory)
		time.Sleep(time.Second)
		synctest.Wait()
		h2.stop()
		if alertsWith(t, h2.alerts, stateCheck, "cost ledger") != 1 {
			t.Fatalf("want one alert that the ledger is gone; alerts: %v", alertsOf(t, h2.alerts))
		}
	})
}
