package tools

import (
	"strings"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/lang"
	"github.com/ai-heart/ai-heart/internal/state"
	"github.com/ai-heart/ai-heart/internal/testutil"
)

// The status reply says why no wakeup comes, in the agent's words and
// language, with the time it lifts, from what the watchdog published
// (chambers.schedule.blocked); a hold that has lifted by now says nothing.
func TestElapsedSaysWhyNoWakeupComes(t *testing.T) {
	later := func(e *env) *time.Time { x := e.now().Add(90 * time.Minute); return &x }
	tests := []struct {
		name  string
		b     func(e *env) *state.Blocked
		rec   state.Recovery
		en    string // in the English text
		ja    string // in the Japanese text
		until bool
	}{
		{"paused for ever", func(e *env) *state.Blocked { return &state.Blocked{Why: state.BlockedPaused} }, state.Recovery{}, "until the operator resumes the watchdog", "ユーザーが再開するまで", false},
		{"paused for a while", func(e *env) *state.Blocked { return &state.Blocked{Why: state.BlockedPaused, Until: later(e)} }, state.Recovery{}, "the operator paused the watchdog", "一時停止", true},
		{"gave up", func(e *env) *state.Blocked { return &state.Blocked{Why: state.BlockedGaveUp, Until: later(e)} },
			state.Recovery{GaveUp: true, Check: "inactivity"}, "recovery gave up after its attempts, held by `inactivity`", "無活動（`inactivity`）のエラーが続き、回復を試みても立ち直らなかったため", true},
		{"budget", func(e *env) *state.Blocked { return &state.Blocked{Why: state.BlockedBudget, Until: later(e)} }, state.Recovery{}, "today's budget", "予算", true},
		{"daily cap", func(e *env) *state.Blocked { return &state.Blocked{Why: state.BlockedCap, Until: later(e)} }, state.Recovery{}, "daily cap of wakeups", "1日の上限", true},
		{"breaker", func(e *env) *state.Blocked { return &state.Blocked{Why: state.BlockedBreaker, Until: later(e)} }, state.Recovery{}, "could not be delivered", "届けられなかった", true},
		{"the model's rate limit", func(e *env) *state.Blocked { return &state.Blocked{Why: state.BlockedService, Until: later(e)} }, state.Recovery{}, "the model's own service asked for a rest (its rate limit", "レート制限", true},
		{"outside active hours", func(e *env) *state.Blocked { return &state.Blocked{Why: state.BlockedHours} }, state.Recovery{}, "outside the active hours", "活動時間外", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			b := tt.b(e)
			e.writeStateWith(t, state.State{PulseAt: e.now(), Delivery: "inbox", Work: state.Work{Mode: state.WorkWaiting}, Recovery: tt.rec,
				Chambers: state.Chambers{Schedule: state.ScheduleChamber{Blocked: b}}})
			res, err := e.tl.GetHeartbeatElapsedTime(noInput{})
			if err != nil {
				t.Fatal(err)
			}
			if res.Quiet == nil || res.Quiet.Why != b.Why {
				t.Fatalf("quiet = %+v, want %s", res.Quiet, b.Why)
			}
			en, jt := res.Text(lang.English), res.Text(lang.Japanese)
			if !strings.Contains(en, tt.en) || !strings.Contains(jt, tt.ja) {
				t.Errorf("English:\n%s\nJapanese:\n%s", en, jt)
			}
			if tt.until && (!strings.Contains(en, e.now().Add(90*time.Minute).Format("15:04:05")) || !strings.Contains(jt, e.now().Add(90*time.Minute).Format("15:04:05"))) {
				t.Errorf("no until time:\n%s\n%s", en, jt)
			}
			testutil.CheckJapanese(t, "status while "+tt.name, jt)
		})
	}
	t.Run("a hold that has lifted says nothing", func(t *testing.T) {
		e := newEnv(t)
		past := e.now().Add(-time.Second)
		e.writeStateWith(t, state.State{PulseAt: e.now(), Work: state.Work{Mode: state.WorkWaiting},
			Chambers: state.Chambers{Schedule: state.ScheduleChamber{Blocked: &state.Blocked{Why: state.BlockedService, Until: &past}}}})
		res, err := e.tl.GetHeartbeatElapsedTime(noInput{})
		if err != nil {
			t.Fatal(err)
		}
		if res.Quiet != nil || strings.Contains(res.Text(lang.English), "No wakeup comes") {
			t.Errorf("quiet = %+v:\n%s", res.Quiet, res.Text(lang.English))
		}
	})
}

// A waiting agent is never told that nothing is due beside a notice that
// asks for something (an introspection error stands while it waits).
func TestElapsedNeverNothingDueBesideANotice(t *testing.T) {
	e := newEnv(t)
	next := e.now().Add(10 * time.Minute)
	e.writeStateWith(t, state.State{PulseAt: e.now(), Work: state.Work{Mode: state.WorkWaiting},
		Chambers: state.Chambers{Schedule: state.ScheduleChamber{NextWakeup: &next}},
		Notices:  []string{"[error] introspection: Introspect now, in this cycle."}})
	res, err := e.tl.GetHeartbeatElapsedTime(noInput{})
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range []lang.Lang{lang.English, lang.Japanese} {
		text := res.Text(l)
		if strings.Contains(text, "nothing is due") || strings.Contains(text, "することはなく") || !strings.Contains(text, tr(l, "Waiting for the next wakeup: inactivity is not counted while you wait, but the notices below still stand: answer them before you wait.\n")) {
			t.Errorf("%s:\n%s", l, text)
		}
	}
	// Without the notice, the next wakeup's time is said.
	e2 := newEnv(t)
	e2.writeStateWith(t, state.State{PulseAt: e2.now(), Work: state.Work{Mode: state.WorkWaiting},
		Chambers: state.Chambers{Schedule: state.ScheduleChamber{NextWakeup: &next}}})
	res, err = e2.tl.GetHeartbeatElapsedTime(noInput{})
	if err != nil {
		t.Fatal(err)
	}
	if text := res.Text(lang.English); !strings.Contains(text, "due at "+next.Format("15:04:05")) {
		t.Errorf("no next wakeup:\n%s", text)
	}
}

// The status reply says whether the client's hooks reach the watchdog and
// since when it heard from them, so the rules that depend on hooks can be
// followed; with no watchdog it says nothing of them.
func TestElapsedSaysWhetherHooksAreWired(t *testing.T) {
	e := newEnv(t)
	heard := e.now().Add(-42 * time.Second)
	e.writeStateWith(t, state.State{PulseAt: e.now(), Work: state.Work{Mode: state.WorkWaiting},
		Client: &state.Client{Mode: state.ClientWaiting, LastEvent: heard}})
	res, err := e.tl.GetHeartbeatElapsedTime(noInput{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Hooks == nil || !res.Hooks.Heard || !strings.Contains(res.Text(lang.English), "hooks are wired: the watchdog last heard from them at "+heard.Format("15:04:05")) {
		t.Errorf("hooks %+v:\n%s", res.Hooks, res.Text(lang.English))
	}
	testutil.CheckJapanese(t, "status with hooks", res.Text(lang.Japanese))

	e2 := newEnv(t)
	e2.writeStateWith(t, state.State{PulseAt: e2.now(), Work: state.Work{Mode: state.WorkWaiting}})
	res, err = e2.tl.GetHeartbeatElapsedTime(noInput{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Hooks == nil || res.Hooks.Heard || !strings.Contains(res.Text(lang.English), "has not heard from your client's hooks since it started at "+e2.now().Add(-time.Hour).Format("15:04:05")) {
		t.Errorf("hooks %+v:\n%s", res.Hooks, res.Text(lang.English))
	}

	// Under exec, hooks or not, the run's successful end answers its
	// wakeup: the line must not say only a log does.
	e4 := newEnv(t)
	e4.writeStateWith(t, state.State{PulseAt: e4.now(), Delivery: config.DeliveryExec, Work: state.Work{Mode: state.WorkWorking}})
	res, err = e4.tl.GetHeartbeatElapsedTime(noInput{})
	if err != nil {
		t.Fatal(err)
	}
	for l, want := range map[lang.Lang]string{lang.English: "A run's successful end answers its wakeup.", lang.Japanese: "実行が正常に終わることが、起動への応答になります。"} {
		if text := res.Text(l); !strings.Contains(text, want) || strings.Contains(text, "only an activity log answers") || strings.Contains(text, "起動に応えるのは活動ログだけ") {
			t.Errorf("exec, %s:\n%s", l, text)
		}
	}

	e3 := newEnv(t)
	res, err = e3.tl.GetHeartbeatElapsedTime(noInput{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Hooks != nil || strings.Contains(res.Text(lang.English), "hooks") {
		t.Errorf("no watchdog, hooks %+v:\n%s", res.Hooks, res.Text(lang.English))
	}
}

// Paused, the structure says what the text says: "paused", no stretch, no
// countdown and no deadline (Claude Code's model, which reads only the
// structure, read "working" and a warning 5 s ahead beside the pause).
func TestPausedStructureSaysPaused(t *testing.T) {
	e := newEnv(t)
	since := e.now().Add(-20 * time.Second)
	e.writeStateWith(t, state.State{PulseAt: e.now(), Delivery: "tmux", Work: state.Work{Mode: state.WorkWorking, Since: &since},
		Chambers: state.Chambers{Schedule: state.ScheduleChamber{Blocked: &state.Blocked{Why: state.BlockedPaused}}}})
	res, err := e.tl.GetHeartbeatElapsedTime(noInput{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Work != workPaused || res.StretchStart != "" || res.StageNote != "" {
		t.Errorf("work %q, stretch %q, stage note %q: want paused, none, none", res.Work, res.StretchStart, res.StageNote)
	}
	for _, th := range res.Thresholds {
		if th.RemainingSeconds != nil || th.Deadline != "" || th.Crossed || !th.Paused {
			t.Errorf("threshold %+v while paused: want paused, no countdown, no deadline", th)
		}
	}
}
