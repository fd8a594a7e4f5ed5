package daemon

import (
	"context"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/delivery"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// recorder is a deliverer that keeps every prompt it was given.
type recorder struct {
	method string
	mu     sync.Mutex
	got    []string
}

func (r *recorder) factory(config.Agent, *workspace.Workspace) (delivery.Deliverer, error) {
	return &fakeDeliverer{method: r.method, deliver: func(ctx context.Context, p string) (delivery.Result, error) {
		r.mu.Lock()
		r.got = append(r.got, p)
		r.mu.Unlock()
		return delivery.Result{Reply: "ok"}, nil
	}}, nil
}

func (r *recorder) prompts() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.got...)
}

func writeLog(t *testing.T, ws *workspace.Workspace, typ workspace.ActivityType) {
	t.Helper()
	now := time.Now()
	id := workspace.NewID(now)
	theme := workspace.Theme{StartID: "20260101000000", Part: "t"}
	if err := os.MkdirAll(ws.Path(theme.HistoriesDir()), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := ws.ClaimSequenced(theme.HistoriesDir(), id, ".md", workspace.ActivityLog{Type: typ, Content: []string{"x"}}.Format(id)); err != nil {
		t.Fatal(err)
	}
}

func TestIdleChamber(t *testing.T) {
	cfg := testConfig(t)
	cfg.Idle = config.Idle{After: config.Duration(600 * time.Millisecond), Prompt: "You have been idle. Explore."}
	rec := &recorder{method: config.DeliveryExec}
	h := start(t, cfg, rec.factory)
	ws, _ := workspace.New(cfg.Workspace, nil)

	time.Sleep(400 * time.Millisecond)
	if n := len(rec.prompts()); n != 0 {
		t.Fatalf("woken %d times before idle.after", n)
	}
	h.waitFor("the idle wakeup", 2*time.Second, func() bool { return len(rec.prompts()) == 1 })
	if p := rec.prompts()[0]; !strings.HasPrefix(p, "Heartbeat: ") || !strings.Contains(p, "You have been idle. Explore.") {
		t.Fatalf("idle prompt = %q", p)
	}
	// While idle, a new themebox file wakes the agent within a pulse or two,
	// named in the prompt; no second plain idle prompt meanwhile.
	time.Sleep(300 * time.Millisecond)
	if err := ws.WriteFile("themebox/next-theme.md", []byte("# Paint the sea\n")); err != nil {
		t.Fatal(err)
	}
	h.waitFor("the themebox wakeup", time.Second, func() bool { return len(rec.prompts()) == 2 })
	if p := rec.prompts()[1]; !strings.Contains(p, "themebox/next-theme.md") {
		t.Fatalf("themebox wakeup = %q, want the file named", p)
	}
	// Activity ends idleness: the next idle wakeup comes idle.after later.
	writeLog(t, ws, workspace.Thinking)
	time.Sleep(300 * time.Millisecond)
	if n := len(rec.prompts()); n != 2 {
		t.Fatalf("woken %d times right after activity, want 2", n)
	}
	h.waitFor("the next idle wakeup", 2*time.Second, func() bool { return len(rec.prompts()) == 3 })
}

func TestDailyCapDropsAndAlertsOnce(t *testing.T) {
	cfg := testConfig(t)
	cfg.Schedule.Every = config.Duration(40 * time.Millisecond)
	cfg.DailyCap = 3
	rec := &recorder{method: config.DeliveryExec}
	h := start(t, cfg, rec.factory)
	h.waitFor("drops", 3*time.Second, func() bool { s, err := h.tryState(); return err == nil && s.Counters.Dropped >= 5 })
	h.stop()
	if n := len(rec.prompts()); n != 3 {
		t.Fatalf("delivered %d wakeups with a cap of 3", n)
	}
	var capAlerts int
	for _, a := range alertsOf(t, h.alerts) {
		if a["check"] == "daily_cap" {
			capAlerts++
		}
	}
	if capAlerts != 1 {
		t.Fatalf("daily_cap alerts = %d, want exactly 1 per day", capAlerts)
	}
	if st := h.state(); st.DailyCap.Used != 3 || st.DailyCap.Limit != 3 {
		t.Fatalf("state daily cap = %+v", st.DailyCap)
	}
}

// TestTmuxWakeupStaysInFlightUntilALog: no heartbeat is pushed into a busy
// pane; the next goes out after the agent writes an activity log.
func TestTmuxWakeupStaysInFlightUntilALog(t *testing.T) {
	cfg := testConfig(t)
	cfg.Schedule.Every = config.Duration(50 * time.Millisecond)
	rec := &recorder{method: config.DeliveryTmux}
	h := start(t, cfg, rec.factory)
	ws, _ := workspace.New(cfg.Workspace, nil)
	h.waitFor("the first wakeup", time.Second, func() bool { return len(rec.prompts()) == 1 })
	time.Sleep(600 * time.Millisecond)
	if n := len(rec.prompts()); n != 1 {
		t.Fatalf("%d heartbeats pushed into a busy pane, want 1", n)
	}
	writeLog(t, ws, workspace.Thinking)
	h.waitFor("the next wakeup after the log", 2*time.Second, func() bool { return len(rec.prompts()) == 2 })
	if s, _ := h.tryState(); s.Counters.Coalesced == 0 {
		t.Fatal("the wakeups due while in flight were not counted as coalesced")
	}
}
