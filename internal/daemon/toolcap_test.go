package daemon

import (
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/lang"
	"github.com/ai-heart/ai-heart/internal/testutil"
)

// TestToolCapEndsRunaway: an exec agent whose model keeps calling tools is
// ended at call max_tool_calls+1, each run discarded (no transcript) and
// counted, the breaker counting the failures; wakeups go on until it opens.
func TestToolCapEndsRunaway(t *testing.T) {
	agent := filepath.Join(t.TempDir(), "fakeagent")
	if err := testutil.Build("../delivery/testdata/fakeagent", agent); err != nil {
		t.Fatal(err)
	}
	cfg := testConfig(t)
	cfg.Schedule.Every = config.Duration(300 * time.Millisecond)
	cfg.Agent = config.Delivery{Delivery: config.DeliveryExec, Command: []string{agent, "stream", "claude", "-1", "x"},
		Timeout: config.Duration(30 * time.Second), Output: config.OutputStreamJSON, MaxToolCalls: 3}
	cfg.CircuitBreaker = config.CircuitBreaker{Failures: 2, Cooldown: config.Duration(time.Hour), MaxCooldown: config.Duration(2 * time.Hour)}
	h := start(t, cfg, nil)
	h.waitFor("two capped runs and an open breaker", 20*time.Second, func() bool {
		s, err := h.tryState()
		return err == nil && s.Counters.ToolCapped >= 2 && s.Breaker.State == "open"
	})
	h.stop()
	st := h.state()
	if by := st.Counters.BySource["schedule"]; by["tool_capped"] != st.Counters.ToolCapped || by["failed"] != 0 {
		t.Fatalf("wakeups_by_source: %v; a capped run's one fate is tool_capped", st.Counters.BySource)
	}
	if st.Counters.DeliveryFailures != st.Counters.ToolCapped || st.Counters.Delivered != 0 {
		t.Fatalf("counters %+v: want every run a capped failure", st.Counters)
	}
	if files, _ := filepath.Glob(filepath.Join(cfg.Workspace, "stats", "wakeups", "*.jsonl")); len(files) != 0 {
		t.Fatalf("capped runs left transcripts %v; they are discarded like ghosts", files)
	}
}

// TestACappedRunIsNamedNotAStall: a run the tool cap ended gives no answer,
// so the stretch runs on to the inactivity error; the alert line and the
// agent's notice name the cap that ended it, not a silent stall.
func TestACappedRunIsNamedNotAStall(t *testing.T) {
	agent := filepath.Join(t.TempDir(), "fakeagent")
	if err := testutil.Build("../delivery/testdata/fakeagent", agent); err != nil {
		t.Fatal(err)
	}
	cfg := testConfig(t)
	cfg.Schedule.Every = config.Duration(500 * time.Millisecond)
	cfg.Thresholds.InactivityWarning = config.Duration(time.Second)
	cfg.Thresholds.InactivityError = config.Duration(2 * time.Second)
	cfg.Agent = config.Delivery{Delivery: config.DeliveryExec, Command: []string{agent, "stream", "claude", "-1", "x"},
		Timeout: config.Duration(30 * time.Second), Output: config.OutputStreamJSON, MaxToolCalls: 3}
	h := start(t, cfg, nil)
	var notices []string
	h.waitFor("the inactivity error's notice after a capped run", 20*time.Second, func() bool {
		s, err := h.tryState()
		notices = s.Notices
		return err == nil && s.Counters.ToolCapped >= 1 && h.hasAlert("inactivity", "error") && strings.Contains(strings.Join(notices, "\n"), "[error] inactivity")
	})
	h.stop()
	line := ""
	for _, a := range alertsOf(t, h.alerts) {
		if a["check"] == "inactivity" && a["level"] == "error" {
			line, _ = a["message"].(string)
		}
	}
	if !strings.Contains(line, "its run was ended by the tool cap (agent.max_tool_calls: 3)") {
		t.Errorf("inactivity error = %q, want it to name the tool cap", line)
	}
	if !strings.Contains(strings.Join(notices, "\n"), "Your last run was ended by the tool cap") {
		t.Errorf("notices = %q, want the agent told the tool cap ended its run", notices)
	}
}

// The tool cap is known before it strikes: every exec wakeup says how many
// tool calls its run may make and that a cut run answers nothing, in the
// agent's language.
func TestEachExecWakeupNamesTheToolCap(t *testing.T) {
	for _, tc := range []struct {
		l    lang.Lang
		want string
	}{{lang.English, "at most 3 tool calls: the watchdog ends it at call 4"}, {lang.Japanese, "ツール呼び出しは3回までです"}} {
		synctest.Test(t, func(t *testing.T) {
			cfg := testConfig(t)
			cfg.Language = tc.l
			cfg.Schedule.Every = config.Duration(time.Second)
			cfg.Agent = config.Delivery{Delivery: config.DeliveryExec, Command: []string{"agent", "{prompt}"}, Timeout: config.Duration(30 * time.Second),
				StopGrace: config.Duration(time.Second), Output: config.OutputStreamJSON, MaxToolCalls: 3}
			rec := &recorder{method: config.DeliveryExec}
			startFake(t, cfg, rec.factory)
			time.Sleep(1050 * time.Millisecond)
			synctest.Wait()
			p := rec.prompts()
			if len(p) == 0 || !strings.Contains(p[0], tc.want) {
				t.Fatalf("%s: the wakeup does not name the tool cap (%q): %q", tc.l, tc.want, p)
			}
		})
	}
}
