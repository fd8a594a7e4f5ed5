package tools

import (
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/state"
	"github.com/ai-heart/ai-heart/internal/workspace"

	"github.com/ai-heart/ai-heart/internal/lang"
)

// japaneseLog is an activity log as existing Japanese workspaces write it.
const japaneseLog = "# 活動ログ\n\n## 活動種別\n内省\n\n## 活動内容\n- 振り返り\n\n## 成果物、関連ファイル\n- なし\n\n## 自己評価、備考\n観測 と書いても種別ではない\n"

func TestGetHeartbeatElapsedTime(t *testing.T) {
	e := newEnv(t)
	now := e.now()
	// No index yet: the first call builds it from the newest files, reading
	// the Japanese headings.
	e.write(testThemeHist+"/20250102025000.md", japaneseLog, now.Add(-20*time.Minute))
	e.write(testThemeHist+"/20250102030000.md", "## 活動種別\n思考\n", now.Add(-6*time.Minute))
	e.write("stats/checkpoints/20250102030000.txt", "03:02:00 first\n03:03:00 second\n", now.Add(-2*time.Minute))
	e.write("stats/deep_work/20250102030000.txt", "制限タイプ: strict\n活動予定内容: 論文の読解\n予定時間: 20分\n", now)
	e.writeState(t, now, "Warning: no activity log for 6 minutes.\nWrite one.", "Feedback waiting in feedbackbox/.")
	before := e.snapshot()

	res, err := call(e.tl, e.tl.GetHeartbeatElapsedTime, args(t, `{}`))
	if err != nil {
		t.Fatal(err)
	}
	e.sameSnapshot(before) // read only, even the first time
	checks := []struct {
		name string
		got  any
		want any
	}{
		{"heartbeat_id", res.HeartbeatID, string(testID)},
		{"heartbeat_age", *res.HeartbeatAgeSeconds, int64(10)},
		{"last_log", res.LastLog, testThemeHist + "/20250102030000.md"},
		{"since_last_log", *res.SinceLastLogSeconds, int64(360)},
		{"since_last_checkpoint", *res.SinceLastCheckpointSeconds, int64(120)},
		{"last_checkpoint_message", res.LastCheckpointMessage, "second"},
		{"since_last_introspection", *res.SinceLastIntrospectionSecs, int64(1200)},
		{"stage", res.Stage, ""}, // 6m cycle, but declared deep work is in force: no stage note
		{"deep work mode", res.DeepWork.Mode, "strict"},
		{"deep work left", *res.DeepWork.RemainingSeconds, int64(945)}, // legacy: deadline = ID time + 20 min,
		{"notices id", res.PendingNoticesHeartbeatID, string(testID)},
		{"notices", res.PendingNotices, []string{"Warning: no activity log for 6 minutes.\nWrite one.", "Feedback waiting in feedbackbox/."}},
	}
	for _, c := range checks {
		if !reflect.DeepEqual(c.got, c.want) {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
	// Newest proof is the checkpoint (2 m ago); strict deep work pauses
	// everything; introspection 20 m ago crossed info (15 m) and reached warning (20 m).
	wantTh := map[string]struct {
		left    int64
		crossed bool
	}{
		"introspection info": {0, true}, "introspection warning": {0, false}, "introspection error": {600, false}, // 20m is not more than 20m, as the check counts
	}
	for _, th := range res.Thresholds {
		w := wantTh[th.Check+" "+th.Level]
		if th.Check == "inactivity" {
			// Strict deep work: inactivity does not count, so no countdown,
			// no deadline, nothing crossed (the text says none is).
			if th.RemainingSeconds != nil || th.Deadline != "" || th.Crossed || !th.Paused {
				t.Errorf("threshold %s %s = %+v while strict deep work pauses it", th.Check, th.Level, th)
			}
			continue
		}
		if th.RemainingSeconds == nil || *th.RemainingSeconds != w.left || th.Crossed != w.crossed || !th.Paused {
			t.Errorf("threshold %s %s = %+v (left %v), want left %d crossed %v paused", th.Check, th.Level, th, th.RemainingSeconds, w.left, w.crossed)
		}
	}
	if !strings.Contains(res.Text(lang.English), "Feedback waiting") {
		t.Errorf("text lacks the notices: %s", res.Text(lang.English))
	}
}

// The stage note and threshold crossing, just under and just over.
func TestGetHeartbeatElapsedTimeStages(t *testing.T) {
	tests := []struct {
		name        string
		age         time.Duration
		stage       string
		warnCrossed bool
	}{
		{"4m59s", 4*time.Minute + 59*time.Second, "", false},
		{"5m1s", 5*time.Minute + time.Second, "notice", true},
		{"9m59s", 9*time.Minute + 59*time.Second, "notice", true},
		{"10m1s", 10*time.Minute + time.Second, "split", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			e.writeState(t, e.now())
			e.write(testThemeHist+"/20250102020000.md", "## Activity type\ncreation\n", e.now().Add(-tc.age))
			res, err := e.tl.GetHeartbeatElapsedTime(noInput{})
			if err != nil {
				t.Fatal(err)
			}
			if res.Stage != tc.stage || res.Thresholds[0].Crossed != tc.warnCrossed {
				t.Errorf("age %s: stage %q crossed %v, want %q %v", tc.age, res.Stage, res.Thresholds[0].Crossed, tc.stage, tc.warnCrossed)
			}
			if res.SinceLastIntrospectionSecs != nil {
				t.Errorf("a creation log counted as introspection")
			}
		})
	}
}

func TestGetHeartbeatElapsedTimeBadCalls(t *testing.T) {
	e := newEnv(t)
	_, err := call(e.tl, e.tl.GetHeartbeatElapsedTime, args(t, `{"heartbeat_id":"20250102030405"}`))
	wantInputError(t, err, "heartbeat_id", "no parameters")
	os.Remove(e.ws.Path(workspace.CurrentIDFile))
	_, err = e.tl.GetHeartbeatElapsedTime(noInput{})
	wantInputError(t, err, "", "watchdog")
}

// writeState publishes the watchdog's state as a pulse at pulseAt would,
// with the given notices.
func (e *env) writeState(t *testing.T, pulseAt time.Time, notices ...string) {
	t.Helper()
	e.writeStateWith(t, state.State{PulseAt: pulseAt, Notices: notices})
}

// writeStateWith publishes st, filled in as a pulse would. The tools read
// the copy in the workspace; the watchdog's lock is in its state folder,
// out of their reach, so they judge the copy by its times alone.
func (e *env) writeStateWith(t *testing.T, st state.State) {
	t.Helper()
	st.Version, st.HeartbeatID = 1, testID
	if st.PulseInterval == 0 {
		st.PulseInterval = config.Duration(time.Minute)
	}
	if st.StartedAt.IsZero() {
		st.StartedAt = st.PulseAt.Add(-time.Hour)
	}
	if st.Work.Baseline == nil {
		st.Work.Baseline = &st.StartedAt
	}
	if err := state.Publish(e.ws, st); err != nil {
		t.Fatal(err)
	}
}

// The pending notices are the running watchdog's current ones, from its
// state file, whatever the delivery; nothing is parsed back out of a prompt.
func TestGetHeartbeatElapsedTimeNotices(t *testing.T) {
	tests := []struct {
		name    string
		state   bool
		age     time.Duration // of the state's last pulse
		notices []string
		wantID  string
		want    []string
	}{
		{name: "no state file", want: []string{}},
		{name: "running, no notices", state: true, age: time.Second, want: []string{}},
		{name: "running, two notices", state: true, age: time.Second, notices: []string{"A", "B"}, wantID: string(testID), want: []string{"A", "B"}},
		{name: "just under two pulses old", state: true, age: 2*time.Minute - time.Second, notices: []string{"A"}, wantID: string(testID), want: []string{"A"}},
		{name: "stopped watchdog (just over two pulses old)", state: true, age: 2*time.Minute + time.Second, notices: []string{"A"}, want: []string{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			// An inbox prompt with other notices is not read any more.
			e.write(workspace.PromptFile, "Heartbeat: 20250102030405\n\nStale prompt notice.\n", e.now())
			if tc.state {
				e.writeState(t, e.now().Add(-tc.age), tc.notices...)
			}
			res, err := e.tl.GetHeartbeatElapsedTime(noInput{})
			if err != nil {
				t.Fatal(err)
			}
			if res.PendingNoticesHeartbeatID != tc.wantID || !reflect.DeepEqual(res.PendingNotices, tc.want) {
				t.Errorf("notices = %q, %q, want %q, %q", res.PendingNoticesHeartbeatID, res.PendingNotices, tc.wantID, tc.want)
			}
		})
	}
}
