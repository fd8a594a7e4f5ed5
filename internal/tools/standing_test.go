package tools

import (
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/lang"
	"github.com/ai-heart/ai-heart/internal/state"
	"github.com/ai-heart/ai-heart/internal/testutil"
)

// threshold finds one row of the reply's table.
func thresholdOf(t *testing.T, r *ElapsedResult, check, level string) ThresholdStatus {
	t.Helper()
	for _, th := range r.Thresholds {
		if th.Check == check && th.Level == level {
			return th
		}
	}
	t.Fatalf("no threshold %s %s", check, level)
	return ThresholdStatus{}
}

// The tools tell what the checks judge. Waiting is not
// counted, working counts from the wakeup, and introspection is owed on
// working time; nothing is measured from the last log alone.
func TestElapsedReportsWhatTheChecksJudge(t *testing.T) {
	t.Run("waiting: nothing is crossed, however old the last log", func(t *testing.T) {
		e := newEnv(t)
		e.write(testThemeHist+"/20250102020000.md", "## Activity type\ncreation\n", e.now().Add(-15*time.Minute))
		e.writeStateWith(t, state.State{PulseAt: e.now(), Delivery: "tmux", Work: state.Work{Mode: state.WorkWaiting}})
		res, err := e.tl.GetHeartbeatElapsedTime(noInput{})
		if err != nil {
			t.Fatal(err)
		}
		text := res.Text(lang.English)
		if res.Work != "waiting" || res.Stage != "" || strings.Contains(text, "crossed:") || !strings.Contains(text, "Waiting for the next wakeup") {
			t.Errorf("work %q stage %q, text:\n%s", res.Work, res.Stage, text)
		}
		if th := thresholdOf(t, res, "inactivity", "error"); th.Crossed || th.RemainingSeconds != nil {
			t.Errorf("inactivity error while waiting = %+v", th)
		}
	})
	t.Run("working: counted from the wakeup, not the last log", func(t *testing.T) {
		e := newEnv(t)
		e.write(testThemeHist+"/20250102020000.md", "## Activity type\ncreation\n", e.now().Add(-15*time.Minute))
		since := e.now().Add(-time.Second)
		e.writeStateWith(t, state.State{PulseAt: e.now(), Delivery: "tmux", Work: state.Work{Mode: state.WorkWorking, Since: &since}})
		res, err := e.tl.GetHeartbeatElapsedTime(noInput{})
		if err != nil {
			t.Fatal(err)
		}
		w := thresholdOf(t, res, "inactivity", "warning")
		if w.Crossed || w.RemainingSeconds == nil || *w.RemainingSeconds != 299 || w.Deadline != since.Add(5*time.Minute).Format(time.RFC3339) {
			t.Errorf("inactivity warning = %+v (left %v)", w, w.RemainingSeconds)
		}
		text := res.Text(lang.English)
		if res.StretchStart != since.Format(time.RFC3339) || res.Stage != "" || strings.Contains(text, "crossed:") ||
			!strings.Contains(text, "Inactivity counts from "+since.Format("15:04:05")) || !strings.Contains(text, "inactivity warning at "+since.Add(5*time.Minute).Format("15:04:05")) {
			t.Errorf("start %q stage %q, text:\n%s", res.StretchStart, res.Stage, text)
		}
	})
	t.Run("a log after the wakeup answers it (tmux, no hooks)", func(t *testing.T) {
		e := newEnv(t)
		since := e.now().Add(-2 * time.Minute)
		e.writeStateWith(t, state.State{PulseAt: e.now().Add(-30 * time.Second), Delivery: "tmux", Work: state.Work{Mode: state.WorkWorking, Since: &since}})
		e.write(testThemeHist+"/20250102030300.md", "## Activity type\nobservation\n", e.now().Add(-10*time.Second))
		res, err := e.tl.GetHeartbeatElapsedTime(noInput{})
		if err != nil {
			t.Fatal(err)
		}
		if res.Work != "waiting" {
			t.Errorf("work = %q, want waiting: %s", res.Work, res.Text(lang.English))
		}
	})
	t.Run("a log after the wakeup answers it (tmux, hooks wired)", func(t *testing.T) {
		e := newEnv(t)
		since := e.now().Add(-2 * time.Minute)
		e.writeStateWith(t, state.State{PulseAt: e.now().Add(-30 * time.Second), Delivery: "tmux", Client: &state.Client{Mode: state.ClientInTurn, LastEvent: since}, Work: state.Work{Mode: state.WorkWorking, Since: &since}})
		e.write(testThemeHist+"/20250102030300.md", "## Activity type\nobservation\n", e.now().Add(-10*time.Second))
		res, err := e.tl.GetHeartbeatElapsedTime(noInput{})
		if err != nil {
			t.Fatal(err)
		}
		if res.Work != "waiting" {
			t.Errorf("work = %q, want waiting: %s", res.Work, res.Text(lang.English))
		}
	})
	t.Run("introspection is owed on working time", func(t *testing.T) {
		e := newEnv(t)
		since := e.now().Add(-3 * time.Minute)
		e.writeStateWith(t, state.State{PulseAt: e.now().Add(-time.Minute), Delivery: "exec",
			Work: state.Work{Mode: state.WorkWorking, Since: &since, WorkedSinceIntrospection: config.Duration(14 * time.Minute)}})
		res, err := e.tl.GetHeartbeatElapsedTime(noInput{})
		if err != nil {
			t.Fatal(err)
		}
		// 14m at the pulse and 1m since: past info (15m is not "past"), 5m to warning.
		info, warning := thresholdOf(t, res, "introspection", "info"), thresholdOf(t, res, "introspection", "warning")
		if info.Crossed || *info.RemainingSeconds != 0 || warning.Crossed || *warning.RemainingSeconds != 300 {
			t.Errorf("introspection info %+v warning %+v (left %d)", info, warning, *warning.RemainingSeconds)
		}
	})
}

// A reply's summary agrees with the notices it
// carries, and where mcp-heart cannot judge, it says so.
func TestElapsedSummaryAgreesWithTheNotices(t *testing.T) {
	t.Run("no proof yet: counted from the watchdog's start, as the check does", func(t *testing.T) {
		e := newEnv(t)
		start := e.now().Add(-15 * time.Minute)
		e.writeStateWith(t, state.State{StartedAt: start, PulseAt: e.now(), Notices: []string{"[error] inactivity: No activity log or checkpoint for 15m."}})
		res, err := e.tl.GetHeartbeatElapsedTime(noInput{})
		if err != nil {
			t.Fatal(err)
		}
		text := res.Text(lang.English)
		if strings.Contains(text, "No watchdog threshold is crossed") || !strings.Contains(text, "inactivity warning (5m) and error (10m)") ||
			strings.Contains(text, "next pulse will raise") {
			t.Errorf("the summary contradicts the notice:\n%s", text)
		}
	})
	t.Run("no watchdog: says it cannot judge", func(t *testing.T) {
		for _, l := range []lang.Lang{lang.English, lang.Japanese} {
			e := newEnv(t)
			e.write(testThemeHist+"/20250102020000.md", "## Activity type\ncreation\n", e.now().Add(-15*time.Minute))
			res, err := e.tl.GetHeartbeatElapsedTime(noInput{})
			if err != nil {
				t.Fatal(err)
			}
			text := res.Text(l)
			if res.Work != "unknown" || strings.Contains(text, tr(l, "No watchdog threshold is crossed.\n")) || strings.Contains(text, tr(l, "Watchdog thresholds crossed: ")) ||
				!strings.Contains(text, tr(l, notRunning)) {
				t.Errorf("%s: work %q, text:\n%s", l, res.Work, text)
			}
		}
	})
}

// The checkpoint and the log measure their cycle the same way: while
// waiting there is no cycle to warn about.
func TestCycleNotesWhileWaiting(t *testing.T) {
	e := newEnv(t)
	e.write(testThemeHist+"/20250102020000.md", "## Activity type\ncreation\n", e.now().Add(-15*time.Minute))
	e.writeStateWith(t, state.State{PulseAt: e.now(), Delivery: "inbox", Work: state.Work{Mode: state.WorkWaiting}})
	cp, err := call(e.tl, e.tl.Checkpoint, args(t, `{"current_activity":"tidying notes"}`))
	if err != nil {
		t.Fatal(err)
	}
	if text := cp.Text(lang.English); strings.Contains(text, "This cycle has run") {
		t.Errorf("checkpoint while waiting warns of a cycle:\n%s", text)
	}
	lg, err := call(e.tl, e.tl.CreateActivityLog, args(t, goodLog))
	if err != nil {
		t.Fatal(err)
	}
	if lg.Stage != "" {
		t.Errorf("log while waiting: stage %q: %s", lg.Stage, lg.Text(lang.English))
	}
}

// A reply leaves out the notices its own call answered,
// and says how old the rest are.
func TestRepliesLeaveOutWhatTheCallAnswered(t *testing.T) {
	const (
		recovery = "[error] recovery: RECOVERY (attempt 1 of 3): the watchdog detected a problem."
		inactive = "[warning] inactivity: No activity log or checkpoint for 6m."
		intro    = "[error] introspection: You have not reflected for 31m."
		feedback = "[info] feedback: Feedback waits in feedbackbox/001_note.md."
		expired  = "[warning] deep_work_expired: Your strict deep work 20250102020000 reached its deadline 02:30:00. In this order: 1. record what you did with create_activity_log now; 2. ..."
	)
	all := []string{recovery, inactive, intro, feedback, expired}
	tests := []struct {
		name string
		call func(e *env) (notices []string, text string)
		want []string
	}{
		{"checkpoint", func(e *env) ([]string, string) {
			r, err := call(e.tl, e.tl.Checkpoint, args(t, `{"current_activity":"still reading"}`))
			if err != nil {
				t.Fatal(err)
			}
			return r.WatchdogNotices, r.Text(lang.English)
		}, []string{recovery, intro, feedback, expired}},
		{"recovery log", func(e *env) ([]string, string) {
			r, err := call(e.tl, e.tl.CreateActivityLog, args(t, strings.Replace(goodLog, `"creation"`, `"recovery"`, 1)))
			if err != nil {
				t.Fatal(err)
			}
			return r.WatchdogNotices, r.Text(lang.English)
		}, []string{intro, feedback}},
		{"introspection log", func(e *env) ([]string, string) {
			r, err := call(e.tl, e.tl.CreateActivityLog, args(t, strings.Replace(goodLog, `"creation"`, `"introspection"`, 1)))
			if err != nil {
				t.Fatal(err)
			}
			return r.WatchdogNotices, r.Text(lang.English)
		}, []string{recovery, feedback}},
		{"status right after a checkpoint", func(e *env) ([]string, string) {
			e.write("stats/checkpoints/"+string(testID)+".txt", "03:04:14 reading\n", e.now().Add(-time.Second))
			r, err := e.tl.GetHeartbeatElapsedTime(noInput{})
			if err != nil {
				t.Fatal(err)
			}
			return r.PendingNotices, r.Text(lang.English)
		}, []string{recovery, intro, feedback, expired}},
		// A log is the expiry's step 1; the log's own reply says the rest.
		{"status right after a log", func(e *env) ([]string, string) {
			e.write(testThemeHist+"/"+string(testID)+".md", "## Activity type\ncreation\n", e.now().Add(-time.Second))
			r, err := e.tl.GetHeartbeatElapsedTime(noInput{})
			if err != nil {
				t.Fatal(err)
			}
			return r.PendingNotices, r.Text(lang.English)
		}, []string{recovery, intro, feedback}},
		// What a log written since the pulse answered is left out too: the
		// recovery log answered the recovery, so the introspection log
		// right after it does not ask for it again.
		{"introspection log right after a recovery log", func(e *env) ([]string, string) {
			if _, err := call(e.tl, e.tl.CreateActivityLog, args(t, strings.Replace(goodLog, `"creation"`, `"recovery"`, 1))); err != nil {
				t.Fatal(err)
			}
			r, err := call(e.tl, e.tl.CreateActivityLog, args(t, strings.Replace(goodLog, `"creation"`, `"introspection"`, 1)))
			if err != nil {
				t.Fatal(err)
			}
			return r.WatchdogNotices, r.Text(lang.English)
		}, []string{feedback}},
		{"checkpoint right after an introspection log", func(e *env) ([]string, string) {
			if _, err := call(e.tl, e.tl.CreateActivityLog, args(t, strings.Replace(goodLog, `"creation"`, `"introspection"`, 1))); err != nil {
				t.Fatal(err)
			}
			r, err := call(e.tl, e.tl.Checkpoint, args(t, `{"current_activity":"still reading"}`))
			if err != nil {
				t.Fatal(err)
			}
			return r.WatchdogNotices, r.Text(lang.English)
		}, []string{recovery, feedback}},
		// Feedback taken since the pulse is not announced again.
		{"log after the feedback was taken", func(e *env) ([]string, string) {
			if err := os.Rename(e.ws.Path("feedbackbox/001_note.md"), e.ws.Path("feedbackbox/processed.001_note.md")); err != nil {
				t.Fatal(err)
			}
			r, err := call(e.tl, e.tl.CreateActivityLog, args(t, goodLog))
			if err != nil {
				t.Fatal(err)
			}
			return r.WatchdogNotices, r.Text(lang.English)
		}, []string{recovery, intro}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			e.write("feedbackbox/001_note.md", "Please cite the tide tables.\n", e.now().Add(-time.Minute))
			e.writeStateWith(t, state.State{PulseAt: e.now().Add(-5 * time.Second), Notices: all})
			got, text := tc.call(e)
			if !slices.Equal(got, tc.want) {
				t.Errorf("notices = %q, want %q", got, tc.want)
			}
			if !strings.Contains(text, "notices from its pulse 5s ago") {
				t.Errorf("the text does not say how old the notices are:\n%s", text)
			}
		})
	}
}

// A log written after a strict deadline says so, once, with
// the expiry's order; whether the watchdog expired the declaration first
// or the log completes it late.
func TestLogAfterStrictDeadlineSaysSo(t *testing.T) {
	const late = "This log comes after your strict deep work's deadline"
	t.Run("completed late by the log", func(t *testing.T) {
		e := newEnv(t)
		e.write("stats/deep_work/20250102030000.txt", "mode: strict\nactivity: reading a paper\nplanned_minutes: 1\ndeadline: 2025-01-02T03:01:00Z\n", e.now().Add(-4*time.Minute))
		res, err := call(e.tl, e.tl.CreateActivityLog, args(t, goodLog))
		if err != nil {
			t.Fatal(err)
		}
		text := res.Text(lang.English)
		if strings.Count(text, late) != 1 || !strings.Contains(text, "(03:01:00)") || strings.Contains(text, "Deep work has ended with this log") {
			t.Errorf("reply:\n%s", text)
		}
	})
	t.Run("expired by the watchdog", func(t *testing.T) {
		e := newEnv(t)
		e.write(testThemeHist+"/20250102020000.md", "## Activity type\ncreation\n", e.now().Add(-30*time.Minute))
		ended := e.now().Add(-time.Minute)
		e.writeStateWith(t, state.State{PulseAt: e.now(), Work: state.Work{StrictEnded: &ended}})
		res, err := call(e.tl, e.tl.CreateActivityLog, args(t, goodLog))
		if err != nil {
			t.Fatal(err)
		}
		// One order, and never "declare it first" for work that was declared.
		if text := res.Text(lang.English); !strings.Contains(text, late) || strings.Contains(text, "declare it first") {
			t.Errorf("reply:\n%s", text)
		}
		// The next log is after it: nothing more to say.
		e.clk.Advance(time.Second)
		res, err = call(e.tl, e.tl.CreateActivityLog, args(t, goodLog))
		if err != nil {
			t.Fatal(err)
		}
		if text := res.Text(lang.English); strings.Contains(text, late) {
			t.Errorf("second log's reply:\n%s", text)
		}
	})
}

// A pulse of this very second is "just now", not "0s ago".
func TestNoticesOfThisSecondAreJustNow(t *testing.T) {
	age := int64(0)
	for l, want := range map[lang.Lang]string{lang.English: "The watchdog's notices from its pulse just now:\n", lang.Japanese: "たった今のパルスでの watchdog の通知：\n"} {
		var b strings.Builder
		writeNotices(&b, l, []string{"[info] feedback: x"}, &age)
		if !strings.HasPrefix(b.String(), want) {
			t.Errorf("%s: %q, want %q", l, b.String(), want)
		}
	}
}

// The watchdog notes a delivered wakeup in its state file at once, keeping
// its last pulse's time: working time since then counts from the wakeup,
// not from the pulse before it.
func TestWorkingTimeCountsFromALaterWakeup(t *testing.T) {
	e := newEnv(t)
	since := e.now().Add(-10 * time.Second)
	e.writeStateWith(t, state.State{PulseAt: e.now().Add(-50 * time.Second), Delivery: "exec", Work: state.Work{Mode: state.WorkWorking, Since: &since}})
	r, err := e.tl.GetHeartbeatElapsedTime(noInput{})
	if err != nil {
		t.Fatal(err)
	}
	th := thresholdOf(t, r, "introspection", "error")
	want := int64((e.tl.Thresholds.Introspection.D() - 10*time.Second) / time.Second)
	if th.RemainingSeconds == nil || *th.RemainingSeconds != want {
		t.Errorf("introspection error in %+v, want %d s of working time left (10s worked since the wakeup)", th, want)
	}
}

// Strict deep work pauses inactivity: the status does not say it counts
// (it starts again from the deadline).
func TestElapsedDuringStrictSaysInactivityIsPaused(t *testing.T) {
	for _, l := range []lang.Lang{lang.English, lang.Japanese} {
		e := newEnv(t)
		e.tl.Lang = l
		since := e.now().Add(-3 * time.Minute)
		e.writeStateWith(t, state.State{PulseAt: e.now(), Delivery: "exec", Work: state.Work{Mode: state.WorkWorking, Since: &since}})
		if _, err := call(e.tl, e.tl.StartDeepWork, args(t, `{"mode":"strict","activity_description":"潮汐表と図を照らし合わせる","planned_duration_minutes":20}`)); err != nil {
			t.Fatal(err)
		}
		r, err := e.tl.GetHeartbeatElapsedTime(noInput{})
		if err != nil {
			t.Fatal(err)
		}
		text := r.Text(l)
		paused := map[lang.Lang]string{lang.English: "Inactivity is paused by strict deep work until 03:24:15.", lang.Japanese: "strict な深い作業のため、無活動の時間は03:24:15まで数えません。"}[l]
		if r.StretchStart != "" || !strings.Contains(text, paused) || strings.Contains(text, "Inactivity counts from") || strings.Contains(text, "から数えています") {
			t.Errorf("%s: stretch_start %q, text:\n%s", l, r.StretchStart, text)
		}
		if l == lang.Japanese {
			testutil.CheckJapanese(t, "status during strict", text)
		}
	}
}

// While the recovery notice stands ("stop what you were doing"), a reply
// does not also advise on the cycle's length ("at a natural break ...",
// "declare deep work"): one story, the recovery's.
func TestNoCycleAdviceDuringRecovery(t *testing.T) {
	const recovery = "[error] recovery: RECOVERY (attempt 1 of 3): the watchdog detected a problem."
	e := newEnv(t)
	since := e.now().Add(-12 * time.Minute)
	e.writeStateWith(t, state.State{PulseAt: e.now(), Delivery: "exec", Work: state.Work{Mode: state.WorkWorking, Since: &since}, Notices: []string{recovery}})
	r, err := e.tl.GetHeartbeatElapsedTime(noInput{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Stage != "" || strings.Contains(r.Text(lang.English), "This cycle has run") {
		t.Errorf("status during recovery: stage %q:\n%s", r.Stage, r.Text(lang.English))
	}
	cp, err := call(e.tl, e.tl.Checkpoint, args(t, `{"current_activity":"reading the rules again"}`))
	if err != nil {
		t.Fatal(err)
	}
	if text := cp.Text(lang.English); strings.Contains(text, "This cycle has run") || !strings.Contains(text, "RECOVERY") {
		t.Errorf("checkpoint during recovery:\n%s", text)
	}
}

// TestLimitsFollowTheWatchdog: mcp-heart started before the watchdog (or
// before its reload) with the default 5m; the watchdog publishes 5s/10s.
// The status reply and the deep-work reply quote the watchdog's limits,
// never "nothing crossed" beside its own error. With a config named, its
// limits stay.
func TestLimitsFollowTheWatchdog(t *testing.T) {
	for _, follow := range []bool{true, false} {
		e := newEnv(t)
		e.tl.FollowWatchdog = follow
		th := config.Defaults().Thresholds
		th.InactivityWarning, th.InactivityError = config.Duration(5*time.Second), config.Duration(10*time.Second)
		since := e.now().Add(-30 * time.Second)
		e.writeStateWith(t, state.State{PulseAt: e.now(), Delivery: "tmux", Thresholds: th, Work: state.Work{Mode: state.WorkWorking, Since: &since}})
		res, err := e.tl.GetHeartbeatElapsedTime(noInput{})
		if err != nil {
			t.Fatal(err)
		}
		if got := thresholdOf(t, res, "inactivity", "error").Crossed; got != follow {
			t.Errorf("follow=%v: inactivity error crossed = %v, want %v:\n%s", follow, got, follow, res.Text(lang.English))
		}
		if got := e.tl.warningComes(e.now()); follow != strings.Contains(got.String(), "already due") {
			t.Errorf("follow=%v: deep work says %q", follow, got)
		}
	}
}

// Recovery is held only while a recoverable check is at error: a log that
// answers the one holding it ends recovery at the next pulse, whatever its
// type, so its reply does not ask for a recovery log any more. Another
// recoverable check at error still holds it.
func TestALogThatEndsRecoveryLeavesItsNotice(t *testing.T) {
	const (
		rec   = "[error] recovery: RECOVERY (attempt 2 of 3): the watchdog detected a problem."
		inact = "[error] inactivity: No activity log or checkpoint for 11m."
		stale = "[error] stale_id: Your newest proof is named with an old ID."
	)
	for _, tc := range []struct {
		name    string
		notices []string
		want    []string
	}{
		{"held by inactivity alone", []string{rec, inact}, []string{}},
		{"stale_id still at error", []string{rec, inact, stale}, []string{rec, stale}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			st := state.State{PulseAt: e.now().Add(-5 * time.Second), Notices: tc.notices}
			st.Recovery.Active, st.Recovery.Attempt, st.Recovery.Check = true, 2, "inactivity"
			e.writeStateWith(t, st)
			r, err := call(e.tl, e.tl.CreateActivityLog, args(t, goodLog))
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(r.WatchdogNotices, tc.want) {
				t.Errorf("notices = %q, want %q", r.WatchdogNotices, tc.want)
			}
		})
	}
}

// While recovery has given up, the log it asked for comes first: the status
// reply adds no advice on the cycle's length beside it.
func TestNoStageNoteWhileGivenUp(t *testing.T) {
	for _, gaveUp := range []bool{false, true} {
		e := newEnv(t)
		since := e.now().Add(-20 * time.Minute)
		st := state.State{PulseAt: e.now(), Delivery: "tmux", Work: state.Work{Mode: state.WorkWorking, Since: &since}}
		st.Recovery.GaveUp, st.Recovery.Check = gaveUp, "inactivity"
		e.writeStateWith(t, st)
		res, err := e.tl.GetHeartbeatElapsedTime(noInput{})
		if err != nil {
			t.Fatal(err)
		}
		if (res.Stage != "") == gaveUp {
			t.Errorf("gave up %v: stage %q: %s", gaveUp, res.Stage, res.Text(lang.English))
		}
	}
}

// The next wakeup is whichever comes first, the schedule's or the idle
// chamber's: "nothing is due before it" was said of the schedule's while
// the idle wakeup came sooner.
func TestNextWakeupIsTheFirstOfScheduleAndIdle(t *testing.T) {
	e := newEnv(t)
	sched, idle := e.now().Add(time.Minute), e.now().Add(10*time.Second)
	st := state.State{PulseAt: e.now(), Delivery: "tmux", Work: state.Work{Mode: state.WorkWaiting}}
	st.Chambers.Schedule.NextWakeup, st.Chambers.Idle.WakeAt = &sched, &idle
	e.writeStateWith(t, st)
	res, err := e.tl.GetHeartbeatElapsedTime(noInput{})
	if err != nil {
		t.Fatal(err)
	}
	if res.NextWakeup != idle.Format(time.RFC3339) {
		t.Errorf("next wakeup %q, want the idle one at %s", res.NextWakeup, idle.Format(time.RFC3339))
	}
}

// Under exec each wakeup is a run: with none in flight (a run the tool cap
// ended, the status read from outside it) no cycle goes on, and the status
// gives no advice on its length ("This cycle has run 46s" stood beside "No
// wakeup comes until 00:00:00"). A run in flight, or a tmux pane, keeps it.
func TestNoStageNoteWithoutARun(t *testing.T) {
	for _, tc := range []struct {
		delivery string
		inFlight bool
		note     bool
	}{{"exec", false, false}, {"exec", true, true}, {"tmux", false, true}} {
		e := newEnv(t)
		since := e.now().Add(-20 * time.Minute)
		st := state.State{PulseAt: e.now(), Delivery: tc.delivery, Work: state.Work{Mode: state.WorkWorking, Since: &since}}
		st.Chambers.Schedule.InFlight = tc.inFlight
		e.writeStateWith(t, st)
		res, err := e.tl.GetHeartbeatElapsedTime(noInput{})
		if err != nil {
			t.Fatal(err)
		}
		if (res.StageNote != "") != tc.note {
			t.Errorf("%s, in flight %v: stage note %q", tc.delivery, tc.inFlight, res.StageNote)
		}
	}
}

// Under exec each run is a new cycle: the run after one the tool cap ended
// begins its cycle at its own wakeup, not at the cut run's (its status said
// "This cycle has run 8s" in a run 0 s old). The stretch inactivity counts
// from is the first unanswered wakeup's still: only the cycle is the run's.
func TestExecCycleStartsAtTheRunsWakeup(t *testing.T) {
	for _, tc := range []struct {
		name string
		run  time.Duration // how long ago the run in flight was woken
		note bool
	}{{"a new run", 2 * time.Second, false}, {"a long run", 20 * time.Minute, true}} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			first := e.now().Add(-25 * time.Minute) // the cut run's wakeup
			run := e.now().Add(-tc.run)
			st := state.State{PulseAt: e.now(), Delivery: "exec", Work: state.Work{Mode: state.WorkWorking, Since: &first}}
			st.Chambers.Schedule.InFlight, st.Chambers.Schedule.InFlightSince = true, &run
			e.writeStateWith(t, st)
			res, err := e.tl.GetHeartbeatElapsedTime(noInput{})
			if err != nil {
				t.Fatal(err)
			}
			if (res.StageNote != "") != tc.note {
				t.Errorf("stage note %q", res.StageNote)
			}
			if res.StretchStart != first.In(e.tl.WS.Loc).Format(time.RFC3339) {
				t.Errorf("inactivity counts from %s, want the first unanswered wakeup %s", res.StretchStart, first)
			}
			cp, err := e.tl.Checkpoint(checkpointInput{CurrentActivity: "taking up the search"})
			if err != nil {
				t.Fatal(err)
			}
			said := slices.ContainsFunc(cp.Notes, func(n string) bool { return strings.HasPrefix(n, "This cycle has run") })
			if said != tc.note {
				t.Errorf("checkpoint notes %q", cp.Notes)
			}
		})
	}
}

// The cycle's note is said once per level it reaches, not on every call:
// the first checkpoint past the inactivity warning carries it, the next
// ones in the same stretch do not, nor does the status right after; past
// the error the next checkpoint says it again (five checkpoint replies in
// a row carried the same note).
func TestCycleNoteOncePerLevel(t *testing.T) {
	e := newEnv(t)
	woken := e.now().Add(-6 * time.Minute) // past the 5-minute warning
	e.writeStateWith(t, state.State{PulseAt: e.now(), Delivery: "tmux", Work: state.Work{Mode: state.WorkWorking, Since: &woken}})
	said := func(cp *CheckpointResult) bool {
		return slices.ContainsFunc(cp.Notes, func(n string) bool { return strings.HasPrefix(n, "This cycle has run") })
	}
	checkpoint := func() *CheckpointResult {
		t.Helper()
		e.clk.Advance(30 * time.Second)
		e.writeStateWith(t, state.State{PulseAt: e.now(), Delivery: "tmux", Work: state.Work{Mode: state.WorkWorking, Since: &woken}})
		cp, err := e.tl.Checkpoint(checkpointInput{CurrentActivity: "still on the search"})
		if err != nil {
			t.Fatal(err)
		}
		return cp
	}
	if cp := checkpoint(); !said(cp) {
		t.Fatalf("the first checkpoint past the warning: notes %q", cp.Notes)
	}
	for i := range 3 {
		if cp := checkpoint(); said(cp) {
			t.Fatalf("checkpoint %d after it repeats the note: %q", i+2, cp.Notes)
		}
	}
	res, err := e.tl.GetHeartbeatElapsedTime(noInput{})
	if err != nil {
		t.Fatal(err)
	}
	if res.StageNote != "" || res.Stage != "notice" {
		t.Errorf("status right after a checkpoint that carried it: stage %q, note %q", res.Stage, res.StageNote)
	}
	// Past the error, a checkpoint from before it did not say so: the
	// next one does (the thresholds are 5 and 10 minutes).
	sec := func(d time.Duration) *int64 { s := int64(d / time.Second); return &s }
	for _, c := range []struct {
		cycle, since time.Duration
		told         bool
	}{
		{6 * time.Minute, 30 * time.Second, true},  // the last checkpoint was past the warning already
		{6 * time.Minute, 2 * time.Minute, false},  // it was before the warning
		{11 * time.Minute, 3 * time.Minute, false}, // past the error now, at the warning then
		{11 * time.Minute, 30 * time.Second, true}, // past the error then too
		{6 * time.Minute, 7 * time.Minute, false},  // from another cycle
	} {
		if got := e.tl.cycleTold(sec(c.cycle), sec(c.since)); got != c.told {
			t.Errorf("cycle %s, checkpoint %s ago: told %v, want %v", c.cycle, c.since, got, c.told)
		}
	}
	if e.tl.cycleTold(sec(6*time.Minute), nil) {
		t.Error("told with no checkpoint at all")
	}
}

// An agent busy in its client's tools (hooks wired, a call a second ago)
// is held by its calls for three times the inactivity thresholds from its
// own last word at most: the countdown says when that bound falls, not
// "the warning in 4 minutes" counted from the last call, which the next
// call moves.
func TestCountdownOfAHookedAgentIsTheHooksBound(t *testing.T) {
	e := newEnv(t)
	since := e.now().Add(-2 * time.Minute) // the wakeup: the agent's own last word
	call := e.now().Add(-time.Second)
	e.writeStateWith(t, state.State{PulseAt: e.now(), Delivery: "tmux",
		Client: &state.Client{Mode: state.ClientInTurn, LastEvent: call, LastTool: "Bash", LastToolAt: &call},
		Work:   state.Work{Mode: state.WorkWorking, Since: &since}})
	res, err := e.tl.GetHeartbeatElapsedTime(noInput{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		level string
		limit time.Duration
	}{{"warning", 5 * time.Minute}, {"error", 10 * time.Minute}} {
		th := thresholdOf(t, res, "inactivity", tc.level)
		want := since.Add(3 * tc.limit)
		if th.Crossed || th.Deadline != want.Format(time.RFC3339) || th.RemainingSeconds == nil || *th.RemainingSeconds != int64(e.now().Sub(want)/-time.Second) {
			t.Errorf("inactivity %s = %+v, want the hooks' bound %s", tc.level, th, want.Format("15:04:05"))
		}
	}
	if text := res.Text(lang.English); !strings.Contains(text, "inactivity warning at "+since.Add(15*time.Minute).Format("15:04:05")) {
		t.Errorf("text:\n%s", text)
	}
}
