package checks

import (
	"strings"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/lang"
	"github.com/ai-heart/ai-heart/internal/scan"
	"github.com/ai-heart/ai-heart/internal/testutil"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

func TestInactivity(t *testing.T) {
	m := time.Minute
	runLevels(t, Inactivity, []levelCase{
		{"no proof, no baseline", scan.Snapshot{}, cfg, OK},
		{"no proof, baseline 5m ago", scan.Snapshot{}, withBaseline(5 * m), OK},
		{"no proof, baseline just over 10m ago", scan.Snapshot{}, withBaseline(10*m + sec), Error},
		{"log 5m ago", withLogs(scan.Snapshot{}, logAgo(5*m, "thinking")), cfg, OK},
		{"log just over 5m ago", withLogs(scan.Snapshot{}, logAgo(5*m+sec, "thinking")), cfg, Warning},
		{"log 10m ago", withLogs(scan.Snapshot{}, logAgo(10*m, "thinking")), cfg, Warning},
		{"log just over 10m ago", withLogs(scan.Snapshot{}, logAgo(10*m+sec, "thinking")), cfg, Error},
		{"checkpoint newer than the log", withLogs(scan.Snapshot{LastCheckpoint: cpAgo(m)}, logAgo(20*m, "thinking")), cfg, OK},
		{"checkpoint just over 5m ago", scan.Snapshot{LastCheckpoint: cpAgo(5*m + sec)}, cfg, Warning},
		{"old log, baseline 5m ago", withLogs(scan.Snapshot{}, logAgo(time.Hour, "thinking")), withBaseline(5 * m), OK},
		{"old log, baseline just over 5m ago", withLogs(scan.Snapshot{}, logAgo(time.Hour, "thinking")), withBaseline(5*m + sec), Warning},
		{"paused by strict", active(withLogs(scan.Snapshot{}, logAgo(20*m, "thinking")), decl(workspace.Strict, 15*m, 30)), cfg, OK},
		{"strict at its deadline still pauses", active(withLogs(scan.Snapshot{}, logAgo(40*m, "thinking")), decl(workspace.Strict, 30*m, 30)), cfg, OK},
		// The pause just ended: inactivity counts from the deadline, so the
		// expiry notice comes alone; a deadline long past (the watchdog was
		// down) is held from the deadline.
		{"strict just past its deadline", active(withLogs(scan.Snapshot{}, logAgo(40*m, "thinking")), decl(workspace.Strict, 30*m+sec, 30)), cfg, OK},
		{"strict deadline 5m ago", active(withLogs(scan.Snapshot{}, logAgo(40*m, "thinking")), decl(workspace.Strict, 35*m, 30)), cfg, OK},
		{"strict deadline just over 5m ago", active(withLogs(scan.Snapshot{}, logAgo(40*m, "thinking")), decl(workspace.Strict, 35*m+sec, 30)), cfg, Warning},
		{"strict deadline just over 10m ago", active(withLogs(scan.Snapshot{}, logAgo(50*m, "thinking")), decl(workspace.Strict, 40*m+sec, 30)), cfg, Error},
		{"strict ended by a later log", active(withLogs(scan.Snapshot{}, logAgo(12*m, "thinking")), decl(workspace.Strict, 15*m, 30)), cfg, Error},
		{"flexible does not pause", active(withLogs(scan.Snapshot{}, logAgo(20*m, "thinking")), decl(workspace.Flexible, 15*m, 0)), cfg, Error},
	})
}

// TestInactivityWorkingAndWaiting: on a schedule, waiting is healthy however
// long; while working, inactivity counts from the later of the wakeup and
// the last proof.
func TestInactivityWorkingAndWaiting(t *testing.T) {
	m := time.Minute
	old := withLogs(scan.Snapshot{}, logAgo(3*time.Hour, "thinking"))
	waiting := time.Duration(-1)
	runLevels(t, Inactivity, []levelCase{
		{"waiting, last log 3h ago", old, withWork(waiting, 0), OK},
		{"waiting, no proof ever", scan.Snapshot{}, withWork(waiting, 0), OK},
		{"working, wakeup 5m ago, old log", old, withWork(5*m, 0), OK},
		{"working, wakeup just over 5m ago, old log", old, withWork(5*m+sec, 0), Warning},
		{"working, wakeup just over 10m ago, old log", old, withWork(10*m+sec, 0), Error},
		{"working, wakeup 20m ago, checkpoint 5m ago", scan.Snapshot{LastCheckpoint: cpAgo(5 * m)}, withWork(20*m, 0), OK},
		{"working, wakeup 20m ago, checkpoint just over 5m ago", scan.Snapshot{LastCheckpoint: cpAgo(5*m + sec)}, withWork(20*m, 0), Warning},
		{"working, no proof, wakeup just over 10m ago", scan.Snapshot{}, withWork(10*m+sec, 0), Error},
	})
}

// TestInactivityWakeupAfterNow: a wakeup stamped a moment after the pulse's
// "now" (the delivery began as the pulse ran) is 0 old, never negative.
func TestInactivityWakeupAfterNow(t *testing.T) {
	c := cfg
	c.Work = Work{Scheduled: true, Working: true, Since: now.Add(46 * time.Microsecond)}
	res, _ := Evaluate(now, scan.Snapshot{}, c, State{})
	f, _ := res.Finding(Inactivity)
	if f.Level != OK || f.Elapsed != 0 || strings.Contains(f.Message, "-") {
		t.Fatalf("inactivity = %+v, want ok with 0 elapsed and no negative duration", f)
	}
}

// The inactivity notice says what its time counts from (the wakeup, the
// latest proof, ...) with the clock time, in both languages: "for 8s"
// alone read as a contradiction beside "since latest checkpoint: 1m11s".
func TestInactivityNoticeSaysWhatItCountsFrom(t *testing.T) {
	m := time.Minute
	old := scan.Snapshot{LastCheckpoint: cpAgo(20 * m)}
	c := withWork(5*m+sec, 0)
	res, _ := Evaluate(now, old, c, State{})
	f, _ := res.Finding(Inactivity)
	wakeup := now.Add(-5*m - sec).In(time.Local).Format("15:04:05")
	if f.Level != Warning || !strings.Contains(f.Notice, "counted from the wakeup ("+wakeup+")") {
		t.Errorf("notice %q", f.Notice)
	}
	c.Language = lang.Japanese
	res, _ = Evaluate(now, old, c, State{})
	f, _ = res.Finding(Inactivity)
	if !strings.Contains(f.Notice, "起動（"+wakeup+"）から5分1秒たちました") {
		t.Errorf("Japanese notice %q", f.Notice)
	}
	testutil.CheckJapanese(t, "inactivity notice", f.Notice)
}

// Once recovery has given up (or waits for a person or the gate), no
// recovery notice comes: the error's notice says what to do itself, never
// "starts recovery: follow the recovery notice". A run the watchdog cut
// off is told first; in Japanese the two sentences meet with no space.
func TestInactivityNoticeWhenRecoveryIsOff(t *testing.T) {
	m := time.Minute
	c := withWork(11*m, 0)
	c.Work.Ended, c.Work.EndedAt = RunEnd{Kind: EndToolCap, Detail: "3"}, c.Work.Since
	c.RecoveryOff = true
	for _, l := range []lang.Lang{lang.English, lang.Japanese} {
		c.Language = l
		res, _ := Evaluate(now, scan.Snapshot{}, c, State{})
		f, _ := res.Finding(Inactivity)
		if f.Level != Error || strings.Contains(f.Notice, "starts recovery") || strings.Contains(f.Notice, "回復を始めます") ||
			!(strings.Contains(f.Notice, "activity_type recovery") || strings.Contains(f.Notice, "活動種別「回復」")) {
			t.Errorf("%s notice with recovery off: %q", l, f.Notice)
		}
		if strings.Contains(f.Notice, "。 ") {
			t.Errorf("an ASCII space between Japanese sentences: %q", f.Notice)
		}
	}
}

// Where a give-up's notice already asks for the recovery log (the first
// wakeup after it ended), the inactivity error asks for no second one: it
// points to what asks above it (the give-up's notice in a wakeup, its
// line in the status), in either language, without naming it a recovery
// notice (the term is RECOVERY's own paragraph), with no "before anything
// else" of its own (an agent told twice wrote two logs).
func TestInactivityErrorPointsToTheGiveUpsNotice(t *testing.T) {
	c := withWork(11*time.Minute, 0)
	c.RecoveryOff, c.RecoveryAsked = true, true
	for _, tc := range []struct {
		l          lang.Lang
		want, nots string
	}{
		{lang.English, "Write the one activity log with activity_type recovery asked for above", "Before anything else"},
		{lang.Japanese, "上で求められている活動種別「回復」の活動ログを一つ書けば", "何よりも先に"},
	} {
		c.Language = tc.l
		res, _ := Evaluate(now, scan.Snapshot{}, c, State{})
		f, _ := res.Finding(Inactivity)
		if f.Level != Error || !strings.Contains(f.Notice, tc.want) || strings.Contains(f.Notice, tc.nots) {
			t.Errorf("%s notice beside the give-up's: %q", tc.l, f.Notice)
		}
	}
}

// After a pause the stretch counts from its end, and the alert line (the
// English recovery notice's reason) names that, not a tool call from before
// the pause: "for 11s (…; last tool call X at 15:01:33)" beside "counted
// from … (15:01:48)" told two stories. The Japanese names the origin as
// the short nouns the other origins are.
func TestInactivityAfterAPauseNamesItsEnd(t *testing.T) {
	c := withBaseline(11 * time.Minute) // the pause ended 11m ago
	c.BaselinePause = true
	c.Client.LastTool, c.Client.LastToolAt = "get_heartbeat_elapsed_time", now.Add(-12*time.Minute)
	snap := withLogs(scan.Snapshot{}, logAgo(30*time.Minute, "thinking"))
	res, _ := Evaluate(now, snap, c, State{})
	f, _ := res.Finding(Inactivity)
	if f.Level != Error || strings.Contains(f.Message, "tool call") || !strings.Contains(f.Message, "last pause ended at 11:49:00") {
		t.Errorf("after a pause: %v %q", f.Level, f.Message)
	}
	c.Language = lang.Japanese
	res, _ = Evaluate(now, snap, c, State{})
	f, _ = res.Finding(Inactivity)
	if !strings.Contains(f.Notice, "一時停止の解除（11:49:00）から11分たちました") || strings.Contains(f.Notice, "開始") {
		t.Errorf("Japanese after a pause: %q", f.Notice)
	}
}

// The watchdog knows whether its baseline is its start or the end of a
// pause: the notice and the alert line say which ("the watchdog's start
// or the end of its last pause" left the agent to guess, and the Japanese
// tied the time to the pause alone).
func TestInactivityBaselineSaysWhichItIs(t *testing.T) {
	snap := withLogs(scan.Snapshot{}, logAgo(30*time.Minute, "thinking"))
	for _, tc := range []struct {
		pause                bool
		message, en, ja, not string
	}{
		{false, "watchdog started at 11:49:00", "counted from the watchdog's start (11:49:00)", "watchdog の開始（11:49:00）から11分たちました", "pause"},
		{true, "last pause ended at 11:49:00", "counted from the end of the operator's pause (11:49:00)", "一時停止の解除（11:49:00）から11分たちました", "watchdog start"},
	} {
		c := withBaseline(11 * time.Minute)
		c.BaselinePause = tc.pause
		res, _ := Evaluate(now, snap, c, State{})
		f, _ := res.Finding(Inactivity)
		if !strings.Contains(f.Message, tc.message) || !strings.Contains(f.Notice, tc.en) || strings.Contains(f.Message+" "+f.Notice, tc.not) {
			t.Errorf("pause %v: %q / %q", tc.pause, f.Message, f.Notice)
		}
		c.Language = lang.Japanese
		res, _ = Evaluate(now, snap, c, State{})
		f, _ = res.Finding(Inactivity)
		if !strings.Contains(f.Notice, tc.ja) {
			t.Errorf("pause %v, Japanese: %q", tc.pause, f.Notice)
		}
	}
}
