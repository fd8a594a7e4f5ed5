package daemon

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/ai-heart/ai-heart/internal/checks"
	"github.com/ai-heart/ai-heart/internal/clock"
	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/hook"
	"github.com/ai-heart/ai-heart/internal/lang"
	"github.com/ai-heart/ai-heart/internal/state"
	"github.com/ai-heart/ai-heart/internal/testutil"
	"github.com/ai-heart/ai-heart/internal/wakeup"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// word reads the word the watchdog keeps for the client's post-tool hook.
func word(t *testing.T, ws *workspace.Workspace) hook.Word {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(ws.Root, filepath.FromSlash(hook.WordFile)))
	if err != nil {
		return hook.Word{}
	}
	var w hook.Word
	if err := json.Unmarshal(b, &w); err != nil {
		t.Fatalf("word file %q: %v", b, err)
	}
	return w
}

// A turn of tool calls alone, past the inactivity warning the hooks hold
// off (three times its threshold): the watchdog keeps the warning as the
// hooks' word, one ID for the stretch and level, and a checkpoint clears it.
func TestBusyTurnGetsTheWord(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig(t)
		cfg.Schedule.Every = config.Duration(time.Hour)
		h := startFake(t, cfg, (&recorder{method: config.DeliveryTmux}).factory)
		ws, _ := workspace.New(cfg.Workspace, nil)
		said(t, ws, hook.Event{Kind: hook.TurnStart})
		var first hook.Word
		for i := 0; i < 35 && !first.Live(time.Now()); i++ { // the warning at 6 s
			said(t, ws, hook.Event{Kind: hook.Tool, Tool: "Bash", Input: fmt.Sprint(i)})
			time.Sleep(200 * time.Millisecond)
			synctest.Wait()
			first = word(t, ws)
		}
		if !first.Live(time.Now()) || !strings.HasPrefix(first.ID, "inactivity.warning.") ||
			!strings.Contains(first.Text, wordLead) || !strings.Contains(first.Text, "[warning] inactivity: ") {
			t.Fatalf("no live word after 7 s of tool calls alone: %+v\nalerts %v", first, alertsOf(t, h.alerts))
		}
		said(t, ws, hook.Event{Kind: hook.Tool, Tool: "Bash", Input: "more"})
		time.Sleep(200 * time.Millisecond)
		synctest.Wait()
		if w := word(t, ws); w.ID != first.ID {
			t.Fatalf("the word's ID changed within the stretch: %q, then %q", first.ID, w.ID)
		}
		writeCheckpoint(t, ws)
		time.Sleep(300 * time.Millisecond)
		synctest.Wait()
		if w := word(t, ws); w.ID != "" || w.Live(time.Now()) {
			t.Fatalf("a checkpoint answered the warning, yet the word stands: %+v", w)
		}
	})
}

// Recovery for inactivity does not interrupt a turn busy in its client's
// tools while the error's word has not reached it: the warning's is not
// enough (a warned turn still busy was Escaped and told "busy, at your
// next step" in one breath). Once the hook says it told the error, recovery
// interrupts; nor is a loop (tool_loop) ever held.
func TestRecoveryHoldsItsEscapeUntilTheErrorIsTold(t *testing.T) {
	now := time.Now()
	cfg := testConfig(t).AgentConfigs()[0]
	agentFor := func(check string) *agent {
		rec := state.Recovery{Active: true, Attempt: 1, Check: check, StartedAt: &now, AttemptAt: &now}
		a := &agent{agentWiring: agentWiring{cfg: cfg, clock: clock.Real{}, gate: newGate(nil, nil, nil, wakeup.State{Rec: rec})}}
		a.result.Findings = []checks.Finding{{Check: checks.Inactivity, Level: checks.Error, Elapsed: time.Minute, Notice: "x"}}
		a.activity.Apply(hook.Event{Time: now.Add(-2 * time.Minute), Kind: hook.TurnStart, Client: "claude-code"})
		a.activity.Apply(hook.Event{Time: now.Add(-time.Second), Kind: hook.Tool, Tool: "Bash", Client: "claude-code"})
		return a
	}
	told := func(a *agent, level checks.Level) {
		a.mu.Lock()
		a.heardTold(hook.Event{Time: now, Kind: hook.ToolDone, Detail: fmt.Sprintf("%sinactivity.%s.%d", hook.ToldPrefix, level, now.Add(-time.Minute).Unix())})
		a.mu.Unlock()
	}
	a := agentFor(checks.Inactivity)
	if !a.holdsEscape() {
		t.Fatal("a busy turn never told is not held from recovery's Escape")
	}
	told(a, checks.Warning)
	if !a.holdsEscape() {
		t.Fatal("a busy turn told only the warning is not held from recovery's Escape")
	}
	told(a, checks.Error)
	if a.holdsEscape() {
		t.Fatal("the turn was told the error, and recovery still may not interrupt it")
	}
	if agentFor(checks.ToolLoop).holdsEscape() {
		t.Fatal("recovery for a tool loop held its Escape for a busy turn")
	}
}

// Recovery of an agent busy in its client's tools says what a busy agent
// can do at its next step: never "stop what you were doing", in either
// language; an agent whose calls stopped gets the reset as before.
func TestBusyRecoveryNoticeDoesNotSayStop(t *testing.T) {
	at := time.Now()
	rec := state.Recovery{Active: true, Attempt: 1, Check: checks.Inactivity, Reason: "no activity log or checkpoint for 31m, only the client's hooks", StartedAt: &at, AttemptAt: &at}
	for _, l := range []lang.Lang{lang.English, lang.Japanese} {
		cfg := testConfig(t).AgentConfigs()[0]
		cfg.Language = l
		for _, busy := range []bool{true, false} {
			a := &agent{agentWiring: agentWiring{cfg: cfg, clock: clock.Real{}, gate: newGate(nil, nil, nil, wakeup.State{Rec: rec})}}
			a.activity.Apply(hook.Event{Time: at.Add(-time.Minute), Kind: hook.TurnStart, Client: "claude-code"})
			last := at.Add(-time.Hour) // calls that stopped long ago
			if busy {
				last = at.Add(-2 * time.Second)
			}
			a.activity.Apply(hook.Event{Time: last, Kind: hook.Tool, Tool: "Bash", Client: "claude-code"})
			notice := ""
			for _, n := range a.notices() {
				if strings.HasPrefix(n, "[error] recovery: ") {
					notice = n
				}
			}
			stop := map[lang.Lang]string{lang.English: "Stop what you were doing", lang.Japanese: "していたことをやめます"}[l]
			if notice == "" || strings.Contains(notice, stop) == busy {
				t.Errorf("%s, busy %v: the recovery notice says %q: %v\n%s", l, busy, stop, !busy, notice)
			}
			if l == lang.Japanese {
				testutil.CheckJapanese(t, "the busy recovery notice", notice)
			}
		}
	}
}
