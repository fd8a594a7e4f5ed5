package daemon

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/hook"
	"github.com/ai-heart/ai-heart/internal/pause"
	"github.com/ai-heart/ai-heart/internal/state"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// A paused agent gets no wakeup and no inactivity alert while the pulse goes
// on; on resume the schedule picks up and the pause is not held against it.
func TestPauseStopsWakeupsAndQuietsInactivity(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig(t)
		cfg.Schedule.Every = config.Duration(200 * time.Millisecond)
		file := cfg.PauseFile()
		if err := pause.Set(file, pause.Pause{Since: time.Now(), Reason: "holiday"}); err != nil {
			t.Fatal(err)
		}
		rec := &recorder{method: config.DeliveryExec}
		h := startFake(t, cfg, rec.factory)
		time.Sleep(5 * time.Second) // past inactivity_error (4s)
		synctest.Wait()
		if n := len(rec.prompts()); n != 0 {
			t.Fatalf("paused agent woken %d times", n)
		}
		st := h.state()
		if st.Pause == nil || st.Pause.Reason != "holiday" || st.Counters.Paused == 0 || st.Counters.Pulses < 40 {
			t.Fatalf("state while paused: pause %+v, paused wakeups %d, pulses %d", st.Pause, st.Counters.Paused, st.Counters.Pulses)
		}
		if got := st.Counters.BySource["schedule"]["paused"]; got != st.Counters.Paused {
			t.Fatalf("wakeups_by_source schedule/paused = %d, want all %d paused wakeups", got, st.Counters.Paused)
		}
		if h.hasAlert("inactivity", "warning") || h.hasAlert("inactivity", "error") || st.Checks["inactivity"].Level != "ok" {
			t.Fatalf("inactivity alerted while paused: %+v", st.Checks["inactivity"])
		}
		if !h.hasAlert("pause", "warning") {
			t.Fatal("no pause alert: the operator is not told monitoring is off")
		}
		if err := pause.Clear(file); err != nil {
			t.Fatal(err)
		}
		time.Sleep(500 * time.Millisecond)
		synctest.Wait()
		if n := len(rec.prompts()); n == 0 {
			t.Fatal("no wakeup after resume")
		}
		if st := h.state(); st.Counters.BySource["schedule"]["delivered"] == 0 {
			t.Fatalf("no delivered schedule wakeup counted after resume: %v", st.Counters.BySource)
		}
		if st := h.state(); st.Pause != nil || st.Checks["inactivity"].Level != "ok" {
			t.Fatalf("after resume: pause %+v, inactivity %+v (the pause was held against the agent)", st.Pause, st.Checks["inactivity"])
		}
		if !h.hasAlert("pause", "ok") {
			t.Fatal("no resume alert")
		}
		h.stop()
	})
}

// A pause with an until ends by itself, and its file is removed.
func TestPauseUntilEnds(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig(t)
		cfg.Schedule.Every = config.Duration(200 * time.Millisecond)
		file := cfg.PauseFile()
		now := time.Now()
		if err := pause.Set(file, pause.Pause{Since: now, Until: now.Add(time.Second)}); err != nil {
			t.Fatal(err)
		}
		rec := &recorder{method: config.DeliveryExec}
		h := startFake(t, cfg, rec.factory)
		time.Sleep(900 * time.Millisecond)
		synctest.Wait()
		if n := len(rec.prompts()); n != 0 {
			t.Fatalf("woken %d times before until", n)
		}
		time.Sleep(700 * time.Millisecond)
		synctest.Wait()
		if n := len(rec.prompts()); n == 0 {
			t.Fatal("no wakeup after until passed")
		}
		if p, _ := pause.Read(file); p != nil {
			t.Fatalf("pause file left after until: %+v", p)
		}
		h.stop()
	})
}

// The agent cannot pause its own monitoring: what it writes where the pause
// used to live (stats/pause.json, even a valid pause) is ignored and
// reported, and a pause file nobody can read holds nothing off.
func TestAgentCannotPauseItself(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig(t) // always on: inactivity must fire, and recovery wake it
		ws, _ := workspace.New(cfg.Workspace, nil)
		if err := ws.EnsureSkeleton(); err != nil {
			t.Fatal(err)
		}
		forged := `{"since": "2026-01-01T00:00:00Z", "reason": "the agent's own idea"}`
		if err := os.WriteFile(ws.Path(pause.LegacyFile), []byte(forged), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(cfg.PauseFile()), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(cfg.PauseFile(), []byte("garbage"), 0o600); err != nil {
			t.Fatal(err)
		}
		rec := &recorder{method: config.DeliveryExec}
		h := startFake(t, cfg, rec.factory)
		time.Sleep(5 * time.Second) // past inactivity_error (4s)
		synctest.Wait()
		st := h.state()
		if st.Pause != nil || st.Counters.Paused != 0 || len(rec.prompts()) == 0 {
			t.Fatalf("paused by a file the operator never wrote: pause %+v, paused wakeups %d, prompts %d", st.Pause, st.Counters.Paused, len(rec.prompts()))
		}
		if !h.hasAlert("inactivity", "error") {
			t.Fatal("inactivity silenced")
		}
		var legacy, unreadable int
		for _, a := range alertsOf(t, h.alerts) {
			msg, _ := a["message"].(string)
			if a["check"] != "pause" || a["level"] != "warning" {
				continue
			}
			if strings.Contains(msg, pause.LegacyFile+" in the workspace is ignored") {
				legacy++
			}
			if strings.Contains(msg, "cannot be read, so the agent is not paused") {
				unreadable++
			}
		}
		if legacy != 1 || unreadable != 1 {
			t.Fatalf("pause alerts: %d about the workspace file, %d about the unreadable one; want one each", legacy, unreadable)
		}
		h.stop()
	})
}

// A pause keeps introspection quiet after it too: strict deep work that
// ends while the agent is paused leaves no working time owed for the pause
// (an operator saw "introspection error: no introspection for 4m56s of
// working time" at the deadline, under "PAUSED … introspection quiet").
func TestPauseOwesNoIntrospection(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig(t)
		cfg.Schedule.Every = config.Duration(500 * time.Millisecond) // scheduled: introspection counts working time
		cfg.Thresholds.Introspection = config.Duration(30 * time.Second)
		ws, _ := workspace.New(cfg.Workspace, nil)
		rec := &recorder{method: config.DeliveryTmux}
		h := startFake(t, cfg, rec.factory)
		time.Sleep(time.Second) // the first wakeup, unanswered: working from here
		synctest.Wait()
		if m := h.state().Work.Mode; m != state.WorkWorking {
			t.Fatalf("work mode %q before the pause, want working", m)
		}
		now := time.Now()
		d := workspace.Declaration{ID: workspace.NewID(now), Mode: workspace.Strict, Activity: "a long build", DeclaredAt: now, PlannedMinutes: 1, Deadline: now.Add(time.Minute)}
		if err := os.MkdirAll(ws.Path(workspace.DeepWorkDir), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(ws.Path(workspace.DeepWorkDir, workspace.DeepWorkName(d.ID, workspace.Active)), d.Format(), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := pause.Set(cfg.PauseFile(), pause.Pause{Since: now, Until: now.Add(2 * time.Minute), Reason: "maintenance"}); err != nil {
			t.Fatal(err)
		}
		time.Sleep(90 * time.Second) // the deadline passes while paused
		synctest.Wait()
		st := h.state()
		if l := st.Checks["introspection"].Level; l == "warning" || l == "error" || h.hasAlert("introspection", "error") || h.hasAlert("introspection", "warning") {
			t.Fatalf("introspection %s while paused (worked %s): %s", l, st.Work.WorkedSinceIntrospection.D(), st.Checks["introspection"].Message)
		}
		if w := st.Work.WorkedSinceIntrospection.D(); w > 5*time.Second {
			t.Errorf("working time since introspection %s after 90s paused, want only what came before the pause", w)
		}
		h.stop()
	})
}

// Deep work pauses introspection, as the checks' table says ("paused by:
// any deep work"): its minutes owe no introspection, so the strict deadline
// is not also an introspection error the moment it passes (a strict minute
// under a 20 s introspection ended in "[error] introspection: You have not
// reflected for 1m11s of working time" beside the expiry's own order).
func TestDeepWorkOwesNoIntrospection(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ws, h := workingOnIntrospection(t)
		now := time.Now()
		d := workspace.Declaration{ID: workspace.NewID(now), Mode: workspace.Strict, Activity: "a long build", DeclaredAt: now, PlannedMinutes: 1, Deadline: now.Add(time.Minute)}
		if err := os.MkdirAll(ws.Path(workspace.DeepWorkDir), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(ws.Path(workspace.DeepWorkDir, workspace.DeepWorkName(d.ID, workspace.Active)), d.Format(), 0o644); err != nil {
			t.Fatal(err)
		}
		time.Sleep(62 * time.Second) // the deadline passes
		synctest.Wait()
		st := h.state()
		if !h.hasAlert("deep_work_expired", "warning") {
			t.Fatalf("no expiry: %v", alertsOf(t, h.alerts))
		}
		if l := st.Checks["introspection"].Level; l != "ok" || h.hasAlert("introspection", "error") || h.hasAlert("introspection", "warning") {
			t.Fatalf("introspection %s at the strict deadline (worked %s): %s", l, st.Work.WorkedSinceIntrospection.D(), st.Checks["introspection"].Message)
		}
		if w := st.Work.WorkedSinceIntrospection.D(); w > 5*time.Second {
			t.Errorf("working time since introspection %s after a minute of deep work, want only what came before and after it", w)
		}
		if m := st.Work.Mode; m != state.WorkWorking {
			t.Errorf("work mode %q: deep work is working time", m)
		}
	})
}

// The minutes a person takes to answer a permission prompt are not the
// agent's working time: introspection owes nothing for them (it reached
// its error during a long prompt, beside "Waiting for a person to answer").
func TestAPersonsMinutesOweNoIntrospection(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ws, h := workingOnIntrospection(t)
		said(t, ws, hook.Event{Kind: hook.TurnStart})
		said(t, ws, hook.Event{Kind: hook.Tool, Tool: "Bash", Input: "rm -rf build"})
		said(t, ws, hook.Event{Kind: hook.Ask, Detail: "permission", Tool: "Bash"})
		time.Sleep(time.Minute) // the person takes a minute
		synctest.Wait()
		st := h.state()
		if h.hasAlert("introspection", "warning") || h.hasAlert("introspection", "error") {
			t.Fatalf("introspection raised while a person was asked (worked %s)", st.Work.WorkedSinceIntrospection.D())
		}
		if w := st.Work.WorkedSinceIntrospection.D(); w > 5*time.Second {
			t.Errorf("working time since introspection %s after a minute of a person's answer", w)
		}
	})
}

// Every recovery attempt carries the strict expiry's order while the agent
// has not acted on it: attempt 2 came without it, the first having
// "carried" it into a pane nobody answered.
func TestEachRecoveryAttemptCarriesTheExpiry(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig(t) // inactivity error after 4s
		cfg.Recovery = config.Recovery{MaxAttempts: 3, MaxWaitCycles: 5}
		ws, _ := workspace.New(cfg.Workspace, nil)
		rec := &recorder{method: config.DeliveryTmux}
		startFake(t, cfg, rec.factory)
		time.Sleep(time.Second)
		synctest.Wait()
		now := time.Now()
		d := workspace.Declaration{ID: workspace.NewID(now), Mode: workspace.Strict, Activity: "a long build", DeclaredAt: now, PlannedMinutes: 1, Deadline: now.Add(time.Minute)}
		if err := os.MkdirAll(ws.Path(workspace.DeepWorkDir), 0o755); err != nil {
			t.Fatal(err)
		}
		decl := ws.Path(workspace.DeepWorkDir, workspace.DeepWorkName(d.ID, workspace.Active))
		if err := os.WriteFile(decl, d.Format(), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(decl, now, now); err != nil { // the bubble's time, not the disk's
			t.Fatal(err)
		}
		time.Sleep(70 * time.Second) // the deadline, the error 4 s later, two attempts
		synctest.Wait()
		var attempts []string
		for _, p := range rec.prompts() {
			if strings.Contains(p, "RECOVERY (attempt") {
				attempts = append(attempts, p)
			}
		}
		if len(attempts) < 2 {
			t.Fatalf("%d recovery attempts, want two or more", len(attempts))
		}
		for i, p := range attempts {
			if !strings.Contains(p, "deep_work_expired") {
				t.Errorf("attempt %d lacks the expiry's order:\n%s", i+1, p)
			}
		}
	})
}

// workingOnIntrospection starts a tmux agent on a schedule (so introspection
// counts working time, 30 s of it) with inactivity far off, and waits past
// its first wakeup, left unanswered: it is working from there.
func workingOnIntrospection(t *testing.T) (*workspace.Workspace, *harness) {
	cfg := testConfig(t)
	cfg.Schedule.Every = config.Duration(500 * time.Millisecond)
	cfg.Thresholds.Introspection = config.Duration(30 * time.Second)
	cfg.Thresholds.InactivityWarning = config.Duration(2 * time.Minute)
	cfg.Thresholds.InactivityError = config.Duration(4 * time.Minute)
	ws, _ := workspace.New(cfg.Workspace, nil)
	rec := &recorder{method: config.DeliveryTmux}
	h := startFake(t, cfg, rec.factory)
	time.Sleep(time.Second)
	synctest.Wait()
	return ws, h
}

// While paused, inactivity and introspection are not judged, as the status
// says beside the notices: an introspection owed from before the pause
// does not stand under "not judged meanwhile" (it did, as "[error]
// introspection: … Introspect now, in this cycle"). It is owed again once
// the pause ends.
func TestPausedNoticesLeaveOutWhatIsNotJudged(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		_, h := workingOnIntrospection(t)
		time.Sleep(31 * time.Second) // 30 s of working time: introspection at error
		synctest.Wait()
		if n := strings.Join(h.state().Notices, "\n"); !strings.Contains(n, "[error] introspection:") {
			t.Fatalf("no introspection error to hold off before the pause:\n%s", n)
		}
		now := time.Now()
		if err := pause.Set(h.cfg.PauseFile(), pause.Pause{Since: now, Reason: "a look"}); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Second)
		synctest.Wait()
		if n := strings.Join(h.state().Notices, "\n"); strings.Contains(n, "] introspection:") || strings.Contains(n, "] inactivity:") {
			t.Errorf("notices while paused judge what is not judged:\n%s", n)
		}
		if err := pause.Clear(h.cfg.PauseFile()); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Second)
		synctest.Wait()
		if n := strings.Join(h.state().Notices, "\n"); !strings.Contains(n, "[error] introspection:") {
			t.Errorf("the introspection owed from before the pause is gone after it:\n%s", n)
		}
		h.stop()
	})
}

// With no proof, inactivity counts from the watchdog's start or from the
// end of the operator's pause, and the watchdog knows which: its alert
// line and its notice say it ("the watchdog's start or the end of its last
// pause" left the agent to guess).
func TestInactivityNamesTheStartOrThePauseEnd(t *testing.T) {
	for _, tc := range []struct {
		paused        bool
		message, text string
	}{
		{false, "watchdog started at", "the watchdog's start ("},
		{true, "last pause ended at", "the end of the operator's pause ("},
	} {
		synctest.Test(t, func(t *testing.T) {
			cfg := testConfig(t) // no schedule: always working, counted from the baseline
			file := cfg.PauseFile()
			if tc.paused {
				if err := pause.Set(file, pause.Pause{Since: time.Now()}); err != nil {
					t.Fatal(err)
				}
			}
			h := startFake(t, cfg, nil)
			if tc.paused {
				time.Sleep(time.Second)
				synctest.Wait()
				if err := pause.Clear(file); err != nil {
					t.Fatal(err)
				}
			}
			time.Sleep(2500 * time.Millisecond) // past inactivity_warning (2s)
			synctest.Wait()
			var msg string
			for _, a := range alertsOf(t, h.alerts) {
				if a["check"] == "inactivity" && a["level"] == "warning" {
					msg, _ = a["message"].(string)
				}
			}
			notices := strings.Join(h.state().Notices, "\n")
			if !strings.Contains(msg, tc.message) || !strings.Contains(notices, tc.text) {
				t.Errorf("paused %v: alert %q, notices %q; want %q and %q", tc.paused, msg, notices, tc.message, tc.text)
			}
			h.stop()
		})
	}
}

// While a pause is in force, the inactivity line says so: it read "last
// pause ended at <now>", naming as past a pause still going on.
func TestInactivityDuringAPauseSaysPaused(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig(t)
		h := startFake(t, cfg, nil)
		time.Sleep(time.Second)
		synctest.Wait()
		if err := pause.Set(cfg.PauseFile(), pause.Pause{Since: time.Now()}); err != nil {
			t.Fatal(err)
		}
		time.Sleep(3 * time.Second)
		synctest.Wait()
		msg := h.state().Checks["inactivity"].Message
		if strings.Contains(msg, "pause ended") || !strings.Contains(msg, "paused") {
			t.Errorf("inactivity during a pause: %q; want it to say the pause is in force", msg)
		}
		h.stop()
	})
}

// The pause alert says a pause shorter than a minute ends to the second.
func TestPausedMessageSaysSecondsUnderAMinute(t *testing.T) {
	since := time.Date(2026, 12, 7, 14, 55, 21, 0, time.UTC)
	short := pausedMessage(&pause.Pause{Since: since, Until: since.Add(15 * time.Second)}, time.UTC)
	long := pausedMessage(&pause.Pause{Since: since, Until: since.Add(2 * time.Hour)}, time.UTC)
	if !strings.Contains(short, "paused until 2026-12-07 14:55:36 UTC") || !strings.Contains(long, "paused until 2026-12-07 16:55 UTC") {
		t.Errorf("pause of 15s: %q; of 2h: %q", short, long)
	}
}
