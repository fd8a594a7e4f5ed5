package daemon

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/hook"
	"github.com/ai-heart/ai-heart/internal/state"
	"github.com/ai-heart/ai-heart/internal/testutil"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// The hooks are the agent's word: the agent can write any line its client
// could. They may hold wakeups for a while, never pause monitoring or keep
// the checks quiet for good.

// countAlerts counts the alerts of check at level.
func (h *harness) countAlerts(check, level string) int {
	n := 0
	for _, a := range alertsOf(h.t, h.alerts) {
		if a["check"] == check && a["level"] == level {
			n++
		}
	}
	return n
}

// A refusal by the model's service (billing, credentials) holds wakeups for
// the breaker's cooldown, then one wakeup probes the service: failing
// again, it holds twice as long (up to max_cooldown); answering, the runs go
// on. No pause is written, nothing waits for `watchdog resume`, each hold
// is one error alert, and the checks go on judging, saying the service
// holds the agent.
func TestServiceRefusalIsAHoldThatIsProbed(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig(t)
		cfg.Schedule.Every = config.Duration(100 * time.Millisecond)
		cfg.CircuitBreaker = config.CircuitBreaker{Failures: 2, Cooldown: config.Duration(2 * time.Second), MaxCooldown: config.Duration(3 * time.Second)}
		var runs atomic.Int64
		h := startFake(t, cfg, refusing("billing_error", 2, &runs))
		time.Sleep(1900 * time.Millisecond)
		synctest.Wait()
		st := h.state()
		if runs.Load() != 1 || st.Pause != nil || h.hasAlert("pause", "warning") {
			t.Fatalf("runs %d, pause %+v, alerts %v: want one run and no pause", runs.Load(), st.Pause, alertsOf(t, h.alerts))
		}
		if _, err := os.Stat(cfg.AgentConfigs()[0].PauseFile()); err == nil {
			t.Fatal("a refusal wrote the operator's pause file")
		}
		if n := h.countAlerts("service", "error"); n != 1 {
			t.Fatalf("%d service errors for one hold: %v", n, alertsOf(t, h.alerts))
		}
		if msg := st.Checks["inactivity"].Message; !strings.Contains(msg, "billing_error") || st.Chambers.Schedule.HeldUntil == nil {
			t.Fatalf("inactivity %q, held until %v: want the check to say the service holds the agent", msg, st.Chambers.Schedule.HeldUntil)
		}
		// The hold ends at 2.1 s; the probe fails: held 3 s more (twice the
		// cooldown, capped at max_cooldown).
		time.Sleep(2 * time.Second)
		synctest.Wait()
		if runs.Load() != 2 || h.countAlerts("service", "error") != 2 {
			t.Fatalf("runs %d, alerts %v: want the probe, failing, and a second hold", runs.Load(), alertsOf(t, h.alerts))
		}
		time.Sleep(2500 * time.Millisecond)
		synctest.Wait()
		if runs.Load() < 3 || !h.hasAlert("service", "ok") || h.state().Pause != nil {
			t.Fatalf("runs %d, alerts %v: want the second probe to answer", runs.Load(), alertsOf(t, h.alerts))
		}
	})
}

// A rate limit said again and again holds no longer than the first hold:
// only a failing probe holds again. One alert per hold, not per line.
func TestRepeatedRateLimitDoesNotExtendTheHold(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig(t)
		cfg.Schedule.Every = config.Duration(100 * time.Millisecond)
		cfg.CircuitBreaker.Cooldown = config.Duration(2 * time.Second)
		rec := &recorder{method: config.DeliveryTmux}
		h := startFake(t, cfg, rec.factory)
		ws, _ := workspace.New(cfg.Workspace, nil)
		time.Sleep(150 * time.Millisecond)
		synctest.Wait()
		said(t, ws, hook.Event{Kind: hook.TurnStart})
		for range 6 { // until 1.95 s: the hold began at about 0.2 s
			said(t, ws, hook.Event{Kind: hook.Failure, Name: "StopFailure", Detail: "rate_limit"})
			time.Sleep(300 * time.Millisecond)
			synctest.Wait()
		}
		if n := len(rec.prompts()); n != 1 {
			t.Fatalf("%d wakeups during the hold, want the first only", n)
		}
		time.Sleep(800 * time.Millisecond)
		synctest.Wait()
		if n := len(rec.prompts()); n != 2 {
			t.Fatalf("%d wakeups at 2.8 s: the lines extended the hold past its first end (2.3 s)", n)
		}
		if n := h.countAlerts("service", "warning"); n != 1 {
			t.Fatalf("%d service warnings for one hold: %v", n, alertsOf(t, h.alerts))
		}
	})
}

// Tool calls alone keep inactivity quiet for three times its thresholds at
// most: past that, with no activity log or checkpoint of the agent's own,
// inactivity warns and then errs, whatever turns the hooks say ended and
// began meanwhile.
func TestToolCallsAloneHaveACeiling(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig(t) // inactivity 2 s / 4 s: on tool calls alone 6 s / 12 s
		cfg.Schedule.Every = config.Duration(time.Hour)
		rec := &recorder{method: config.DeliveryTmux}
		h := startFake(t, cfg, rec.factory)
		ws, _ := workspace.New(cfg.Workspace, nil)
		said(t, ws, hook.Event{Kind: hook.TurnStart})
		for i := range 35 { // 14 s
			said(t, ws, hook.Event{Kind: hook.Tool, Tool: "Bash", Input: fmt.Sprint(i)})
			if i%5 == 4 {
				said(t, ws, hook.Event{Kind: hook.TurnEnd})
				said(t, ws, hook.Event{Kind: hook.TurnStart})
			}
			time.Sleep(400 * time.Millisecond)
			synctest.Wait()
			if i == 12 && h.hasAlert("inactivity", "warning") { // 5.2 s
				t.Fatalf("inactivity warning before three times its threshold: %v", alertsOf(t, h.alerts))
			}
		}
		if !h.hasAlert("inactivity", "warning") || !h.hasAlert("inactivity", "error") {
			t.Fatalf("14 s of tool calls and no log: alerts %v", alertsOf(t, h.alerts))
		}
	})
}

// A turn's end answers a wakeup only when the client said the turn began
// after the wakeup: a lone Stop line answers nothing, and the agent stays
// working on it.
func TestALoneStopAnswersNoWakeup(t *testing.T) {
	for _, method := range []string{config.DeliveryTmux, config.DeliveryInbox} {
		t.Run(method, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				cfg := testConfig(t)
				cfg.Schedule.Every = config.Duration(time.Second)
				rec := &recorder{method: method}
				h := startFake(t, cfg, rec.factory)
				ws, _ := workspace.New(cfg.Workspace, nil)
				time.Sleep(1050 * time.Millisecond)
				synctest.Wait()
				said(t, ws, hook.Event{Kind: hook.TurnEnd})
				time.Sleep(200 * time.Millisecond)
				synctest.Wait()
				if w := h.state().Work; w.Mode != state.WorkWorking {
					t.Fatalf("work %+v after a lone Stop: want still working on the wakeup", w)
				}
				time.Sleep(time.Second)
				synctest.Wait()
				if n := len(rec.prompts()); method == config.DeliveryTmux && n != 1 {
					t.Fatalf("%d tmux wakeups: the lone Stop answered the first", n)
				}
				// The client's own turn, begun after the wakeup, answers it.
				said(t, ws, hook.Event{Kind: hook.TurnStart})
				said(t, ws, hook.Event{Kind: hook.TurnEnd})
				time.Sleep(150 * time.Millisecond)
				synctest.Wait()
				if w := h.state().Work; method == config.DeliveryTmux && w.Mode != state.WorkWaiting {
					t.Fatalf("work %+v after the client's turn: want waiting", w)
				}
			})
		})
	}
}

// The real heart-hook, fed the one StopFailure line the agent could pipe
// to it, holds wakeups and then probes: no pause, no `watchdog resume`.
func TestHeartHookRefusalLineHoldsThenProbes(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "heart-hook")
	if err := testutil.Build("github.com/ai-heart/ai-heart/cmd/heart-hook", bin); err != nil {
		t.Fatal(err)
	}
	cfg := testConfig(t)
	cfg.Schedule.Every = config.Duration(200 * time.Millisecond)
	cfg.CircuitBreaker.Cooldown = config.Duration(time.Second)
	cfg.CircuitBreaker.MaxCooldown = config.Duration(2 * time.Second)
	rec := &recorder{method: config.DeliveryTmux}
	h := start(t, cfg, rec.factory)
	h.waitFor("the first wakeup", 10*time.Second, func() bool { return len(rec.prompts()) == 1 })
	cmd := exec.Command(bin, "--client", "claude-code", "--workspace", cfg.Workspace)
	cmd.Stdin = strings.NewReader(`{"hook_event_name":"StopFailure","error":"billing_error"}`)
	if out, err := cmd.CombinedOutput(); err != nil || len(out) != 0 {
		t.Fatalf("heart-hook: %v %s", err, out)
	}
	h.waitFor("the service error", 10*time.Second, func() bool { return h.hasAlert("service", "error") })
	h.waitFor("the probe after the hold", 10*time.Second, func() bool { return len(rec.prompts()) >= 2 })
	if st := h.state(); st.Pause != nil || h.hasAlert("pause", "warning") {
		t.Fatalf("pause %+v, alerts %v: a hook line paused the agent", st.Pause, alertsOf(t, h.alerts))
	}
}
