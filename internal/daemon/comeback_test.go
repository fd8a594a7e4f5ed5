package daemon

import (
	"slices"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/ai-heart/ai-heart/internal/checks"
	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/lang"
	"github.com/ai-heart/ai-heart/internal/pause"
	"github.com/ai-heart/ai-heart/internal/recovery"
	"github.com/ai-heart/ai-heart/internal/testutil"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// Coming back from a give-up is one notice: the first wakeup after it says
// what happened and asks for the recovery log, and does not also carry a
// new "RECOVERY (attempt 1 of 1)"; nor does it put a config key in front of
// the agent.
func TestComingBackIsOneNotice(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig(t) // inactivity error after 4s
		cfg.Recovery = config.Recovery{MaxAttempts: 1, MaxWaitCycles: 3, ResumeAfter: config.Duration(2 * time.Second)}
		rec := &recorder{method: config.DeliveryTmux}
		h := startFake(t, cfg, rec.factory)
		time.Sleep(10 * time.Second) // error, one attempt, give-up, back after 2 s, the next attempt
		synctest.Wait()
		if !h.hasAlert("gave_up", "error") || !h.hasAlert("gave_up", "ok") {
			t.Fatalf("no give-up and return: %v", alertsOf(t, h.alerts))
		}
		var back string
		for _, p := range rec.prompts() {
			if strings.Contains(p, "Recovery tried") {
				back = p
				break
			}
		}
		if back == "" {
			t.Fatalf("no wakeup told the agent of the give-up: %q", rec.prompts())
		}
		if strings.Contains(back, "RECOVERY (attempt") || strings.Contains(back, "the recovery notice says") || strings.Count(back, "] recovery: ") != 1 || strings.Count(back, "Before anything else") != 1 {
			t.Errorf("the return carries two recovery notices: %q", back)
		}
		if strings.Contains(back, "resume_after") {
			t.Errorf("a config key in the agent's text: %q", back)
		}
	})
}

// A give-up that the agent's own recovery log ended does not ask for that
// log again: the wakeup after it says the log was seen, and asks nothing
// an obedient agent would answer with a second recovery log.
func TestComingBackAfterTheRecoveryLogAsksNoOther(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig(t) // inactivity error after 4s
		cfg.Recovery = config.Recovery{MaxAttempts: 1, MaxWaitCycles: 3, ResumeAfter: config.Duration(time.Hour)}
		cfg.Schedule.Every = config.Duration(3 * time.Second)
		rec := &recorder{method: config.DeliveryTmux}
		h := startFake(t, cfg, rec.factory)
		h.waitFor("the give-up", 30*time.Second, func() bool { return h.hasAlert("gave_up", "error") })
		time.Sleep(time.Second)
		writeLog(t, h.ws(), workspace.Recovery)
		h.waitFor("the return", 10*time.Second, func() bool { return h.hasAlert("gave_up", "ok") })
		var back string
		h.waitFor("the wakeup that tells of the give-up", 10*time.Second, func() bool {
			for _, p := range rec.prompts() {
				if strings.Contains(p, "Recovery tried") {
					back = p
					return true
				}
			}
			return false
		})
		if !strings.Contains(back, "your recovery log (") || !strings.Contains(back, "then go on with your next activity.") {
			t.Errorf("the return does not say the recovery log ended it: %q", back)
		}
		if strings.Contains(back, "write an activity log") || strings.Contains(back, `activity_type "recovery"`) {
			t.Errorf("the return asks again for the recovery log the agent wrote: %q", back)
		}
	})
}

// The attempt that came back with the give-up's notice keeps that notice
// for as long as it stands: the pulses after it do not say "RECOVERY
// (attempt 1 of 1)" beside "Recovery tried 1 times" (the status tool showed
// both, one pulse apart).
func TestComingBackKeepsItsOneNotice(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig(t) // inactivity error after 4s
		cfg.Recovery = config.Recovery{MaxAttempts: 1, MaxWaitCycles: 20, ResumeAfter: config.Duration(time.Second)}
		rec := &recorder{method: config.DeliveryTmux}
		h := startFake(t, cfg, rec.factory)
		h.waitFor("the wakeup that tells of the give-up", 30*time.Second, func() bool {
			return slices.ContainsFunc(rec.prompts(), func(p string) bool { return strings.Contains(p, "Recovery tried") })
		})
		time.Sleep(300 * time.Millisecond) // three pulses after it, well within the attempt's wait
		synctest.Wait()
		notices := strings.Join(h.state().Notices, "\n")
		if strings.Contains(notices, "RECOVERY (attempt") || !strings.Contains(notices, "Recovery tried") || strings.Contains(notices, "starts recovery") {
			t.Errorf("the notices after the return:\n%s", notices)
		}
	})
}

// A pause during a give-up ends it, and the first wakeup after the pause
// tells the agent (it ended in silence: recovery started afresh with the
// pause and nothing was owed). No wakeup comes while the pause lasts, and
// the notice says so then; the wakeup after it says the pause is over, not
// "no wakeup comes while the pause lasts" inside a wakeup. It asks once for
// the recovery log: the inactivity error beside it points to that notice
// rather than asking "before anything else" a second time.
func TestAPauseEndsAGiveUpAndIsTold(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig(t) // inactivity error after 4s
		cfg.Recovery = config.Recovery{MaxAttempts: 1, MaxWaitCycles: 3, ResumeAfter: config.Duration(time.Hour)}
		rec := &recorder{method: config.DeliveryTmux}
		h := startFake(t, cfg, rec.factory)
		h.waitFor("the give-up", 30*time.Second, func() bool { return h.hasAlert("gave_up", "error") })
		now := time.Now()
		if err := pause.Set(cfg.PauseFile(), pause.Pause{Since: now, Until: now.Add(3 * time.Second), Reason: "a look"}); err != nil {
			t.Fatal(err)
		}
		h.waitFor("the give-up's end", 10*time.Second, func() bool { return h.hasAlert("gave_up", "ok") })
		before := len(rec.prompts())
		time.Sleep(time.Second) // the pause holds 2 s more
		synctest.Wait()
		if n := len(rec.prompts()); n != before {
			t.Fatalf("%d wakeups came while paused: %q", n-before, rec.prompts()[before:])
		}
		paused := strings.Join(h.state().Notices, "\n")
		if !strings.Contains(paused, "which ended that stop. No wakeup comes until the pause ends.") {
			t.Errorf("the notices while paused do not say the pause holds wakeups:\n%s", paused)
		}
		var back string
		h.waitFor("the wakeup that tells of it", 20*time.Second, func() bool {
			for _, p := range rec.prompts() {
				if strings.Contains(p, "the operator paused you at") {
					back = p
					return true
				}
			}
			return false
		})
		if strings.Contains(back, "No wakeup comes until the pause ends") || !strings.Contains(back, "the pause has ended since") {
			t.Errorf("the wakeup after the pause talks of the pause as if it lasted:\n%s", back)
		}
		if !strings.Contains(back, "] inactivity: ") {
			t.Fatalf("the wakeup after the pause has no inactivity line to check:\n%s", back)
		}
		if n := strings.Count(back, "Before anything else"); n != 1 || !strings.Contains(back, "Write the one activity log with activity_type recovery asked for above") {
			t.Errorf("the wakeup after the pause asks %d times for the recovery log:\n%s", n, back)
		}
	})
}

// The pulse that gives up already tells the agent what stands: its
// inactivity notice does not say "starts recovery" beside a give-up with no recovery notice (it did, for one pulse,
// since the checks judged before recovery stepped).
func TestTheGiveUpPulseSaysWhatStands(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig(t) // inactivity error after 4s
		cfg.Recovery = config.Recovery{MaxAttempts: 1, MaxWaitCycles: 3, ResumeAfter: config.Duration(time.Hour)}
		rec := &recorder{method: config.DeliveryTmux}
		h := startFake(t, cfg, rec.factory)
		time.Sleep(time.Second) // pulses have written the state
		synctest.Wait()
		var notices string
		h.waitFor("the first state that has given up", 30*time.Second, func() bool {
			st := h.state()
			notices = strings.Join(st.Notices, "\n")
			return st.Recovery.GaveUp
		})
		if strings.Contains(notices, "starts recovery") || !strings.Contains(notices, `activity_type recovery`) {
			t.Errorf("the give-up pulse's notices:\n%s", notices)
		}
		// The status's give-up line above them asks for the recovery log:
		// the inactivity error asks for no second one.
		if strings.Contains(notices, "Before anything else") || !strings.Contains(notices, "asked for above") {
			t.Errorf("the give-up's notices ask twice for the log:\n%s", notices)
		}
	})
}

// A recovery log written while the operator's pause (or resume, or the
// waiting time) ended the give-up answers it: the notice after says it is
// written, never "before anything else, write" a second one.
func TestARecoveryLogAfterTheGiveUpIsCredited(t *testing.T) {
	at := time.Date(2026, 12, 7, 14, 17, 0, 0, time.UTC)
	for _, how := range []recovery.Return{recovery.Paused, recovery.Resumed, recovery.Timed} {
		g := &recovery.GiveUp{Attempts: 3, Check: checks.Inactivity, At: at, Ended: at.Add(time.Second), How: how}
		if recoveryLogAfter(g, []workspace.Proof{{ModTime: at.Add(-time.Second), Type: workspace.Recovery}}) != nil {
			t.Fatalf("%v: a recovery log from before the give-up answered it", how)
		}
		logged := recoveryLogAfter(g, []workspace.Proof{{ModTime: at.Add(5 * time.Second), Type: workspace.Other}, {ModTime: at.Add(3 * time.Second), Type: workspace.Recovery}})
		if logged == nil || !logged.Equal(at.Add(3*time.Second)) {
			t.Fatalf("%v: the recovery log written after the give-up is not credited: %v", how, logged)
		}
		for _, l := range []lang.Lang{lang.English, lang.Japanese} {
			for _, paused := range []bool{true, false} {
				n := owedNotice(g, logged, paused, time.UTC, l)
				if strings.Contains(n, "Before anything else") || strings.Contains(n, "何よりも先に") || !strings.Contains(n, "14:17:03") {
					t.Errorf("%v %s paused %v: %s", how, l, paused, n)
				}
				if l == lang.Japanese {
					testutil.CheckJapanese(t, "the owed notice, log written", n)
				}
			}
		}
	}
}
