package checks

import (
	"strings"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/lang"
	"github.com/ai-heart/ai-heart/internal/scan"
)

// TestRunCutNotice: the inactivity error after a run that was cut off says
// what cut it, and asks for what the agent can do about that cause: a run
// within the cap it hit, or, for a signal from outside (no limit of its
// own to keep within), checkpoints and early logs. In both languages.
func TestRunCutNotice(t *testing.T) {
	for _, tc := range []struct {
		end       RunEnd
		want, not string
		wantJa    string
	}{
		{RunEnd{Kind: EndToolCap, Detail: "40"}, "keep each run within it", "checkpoints along the way", "1回の実行をこの制限の範囲に収めてください"},
		{RunEnd{Kind: EndSignal, Detail: "SIGTERM"}, "write checkpoints along the way", "keep each run within it", "長い作業は途中でチェックポイントを書き"},
	} {
		c := withWork(11*time.Minute, 0)
		c.Work.Ended, c.Work.EndedAt = tc.end, now.Add(-10*time.Minute)
		r, _ := Evaluate(now, scan.Snapshot{}, c, State{})
		f, _ := r.Finding(Inactivity)
		if f.Level != Error || !strings.Contains(f.Notice, tc.want) || strings.Contains(f.Notice, tc.not) {
			t.Errorf("%s: %v %q, want an error saying %q and not %q", tc.end.Kind, f.Level, f.Notice, tc.want, tc.not)
		}
		c.Language = lang.Japanese
		rj, _ := Evaluate(now, scan.Snapshot{}, c, State{})
		fj, _ := rj.Finding(Inactivity)
		if !strings.Contains(fj.Notice, tc.wantJa) || !strings.Contains(fj.Notice, "回復を始めます") {
			t.Errorf("%s (ja): %q, want %q and 回復を始めます", tc.end.Kind, fj.Notice, tc.wantJa)
		}
	}
}

// The run after a cut one is told of the cut at the warning already: its
// prompt said only "if you are still working, write a checkpoint", wrong
// advice for a fresh run, until inactivity reached its error.
func TestRunCutNoticeAtTheWarning(t *testing.T) {
	c := withWork(6*time.Minute, 0)
	c.Work.Ended, c.Work.EndedAt = RunEnd{Kind: EndToolCap, Detail: "3"}, now.Add(-5*time.Minute)
	r, _ := Evaluate(now, scan.Snapshot{}, c, State{})
	if f, _ := r.Finding(Inactivity); f.Level != Warning || !strings.Contains(f.Notice, "Your last run was ended by") {
		t.Errorf("%v %q, want a warning that names the cut", f.Level, f.Notice)
	}
}

// After a cut, the warning is read by the next run, a new one: "If you are
// still working" is advice for the run that was ended, and "the wakeup"
// reads as its own. It names the cut run's wakeup, says the count goes on
// in this run and asks for a checkpoint first. In both languages.
func TestRunCutWarningSpeaksToTheNewRun(t *testing.T) {
	c := withWork(6*time.Minute, 0)
	c.Work.Ended, c.Work.EndedAt = RunEnd{Kind: EndToolCap, Detail: "3"}, now.Add(-5*time.Minute)
	for _, tc := range []struct {
		l         lang.Lang
		want, not string
	}{
		{lang.English, "counted from the wakeup of your last run (11:54:00). That count goes on in this run: begin with a checkpoint", "If you are still working"},
		{lang.Japanese, "前回の実行の起動（11:54:00）から6分たちました。この時間はこの実行でも数え続けられます。まず", "まだ作業中なら"},
	} {
		c.Language = tc.l
		r, _ := Evaluate(now, scan.Snapshot{}, c, State{})
		f, _ := r.Finding(Inactivity)
		if f.Level != Warning || !strings.Contains(f.Notice, tc.want) || strings.Contains(f.Notice, tc.not) {
			t.Errorf("%s: %v %q, want a warning saying %q and not %q", tc.l, f.Level, f.Notice, tc.want, tc.not)
		}
	}
	// With no cut, the run that is still going is asked as before.
	c = withWork(6*time.Minute, 0)
	r, _ := Evaluate(now, scan.Snapshot{}, c, State{})
	if f, _ := r.Finding(Inactivity); !strings.Contains(f.Notice, "If you are still working") {
		t.Errorf("no cut: %q", f.Notice)
	}
}

// The tool cap ends a run at the call past it, which the watchdog sees in
// the client's stream only as it is made: that call may go through (a
// fourth checkpoint stood beside "agent.max_tool_calls: 3"). The notice
// names the call that ended the run, so the two agree. In both languages.
func TestToolCapNamesTheCallThatEndedTheRun(t *testing.T) {
	c := withWork(6*time.Minute, 0)
	c.Work.Ended, c.Work.EndedAt = RunEnd{Kind: EndToolCap, Detail: "3"}, now.Add(-5*time.Minute)
	for _, tc := range []struct {
		l    lang.Lang
		want string
	}{
		{lang.English, "Your last run was ended by the tool cap (agent.max_tool_calls: 3) on its tool call 4 at 11:55:00,"},
		{lang.Japanese, "11:55:00にツール呼び出しの上限（agent.max_tool_calls: 3）を超えた4回目の呼び出しで打ち切られました。"},
	} {
		c.Language = tc.l
		r, _ := Evaluate(now, scan.Snapshot{}, c, State{})
		if f, _ := r.Finding(Inactivity); !strings.Contains(f.Notice, tc.want) {
			t.Errorf("%s: %q, want %q", tc.l, f.Notice, tc.want)
		}
	}
}

// At the error after a run one of the watchdog's limits cut, the notice
// never calls the agent stuck nor tells the new run to stop; Cut says what
// ended it for the recovery notice (not for a signal from outside), and
// Brief points to the recovery notice without its steps. In both languages.
func TestACutRunsErrorIsNoStall(t *testing.T) {
	for _, tc := range []struct {
		end RunEnd
		cut bool
	}{{RunEnd{Kind: EndToolCap, Detail: "3"}, true}, {RunEnd{Kind: EndTimeout, Detail: "4s"}, true}, {RunEnd{Kind: EndSignal, Detail: "SIGTERM"}, false}} {
		for _, l := range []lang.Lang{lang.English, lang.Japanese} {
			c := withWork(11*time.Minute, 0)
			c.Language = l
			c.Work.Ended, c.Work.EndedAt = tc.end, now.Add(-10*time.Minute)
			r, _ := Evaluate(now, scan.Snapshot{}, c, State{})
			f, _ := r.Finding(Inactivity)
			for _, stall := range []string{"stuck", "stop what you were doing", "行き詰まって", "していたことをやめ"} {
				if strings.Contains(f.Notice, stall) || strings.Contains(f.Brief, stall) {
					t.Errorf("%s %s: %q says %q", tc.end.Kind, l, f.Notice, stall)
				}
			}
			if (f.Cut != "") != tc.cut || f.Brief == "" || strings.Contains(f.Brief, "GEMINI.md") {
				t.Errorf("%s %s: cut %q, brief %q", tc.end.Kind, l, f.Cut, f.Brief)
			}
		}
	}
}
