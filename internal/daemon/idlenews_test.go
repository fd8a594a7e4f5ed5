package daemon

import (
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/lang"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// A themebox file that arrives while the agent waits (not idle: it wrote a
// log since its last wakeup) is named in the idle wakeup that follows; that
// wakeup named nothing and marked the file announced, so no wakeup ever
// named it, and said "nothing new has come" beside a standing notice.
func TestTheIdleWakeupNamesWhatCameWhileWaiting(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig(t)
		cfg.Idle = config.Idle{After: config.Duration(time.Second), Prompt: config.IdlePrompt(config.DeliveryExec, lang.English)}
		rec := &recorder{method: config.DeliveryExec}
		startFake(t, cfg, rec.factory)
		ws, _ := workspace.New(cfg.Workspace, nil)
		writeLog(t, ws, workspace.Thinking) // waiting, not idle
		time.Sleep(300 * time.Millisecond)
		if err := ws.WriteFile("themebox/010_stars.md", []byte("# Stars\n")); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Second)
		synctest.Wait()
		p := rec.prompts()
		if len(p) != 1 {
			t.Fatalf("%d wakeups, want the one idle wakeup: %q", len(p), p)
		}
		if !strings.Contains(p[0], "themebox/010_stars.md") || strings.Contains(p[0], "Nothing new has come") {
			t.Errorf("the idle wakeup does not name the file that came:\n%s", p[0])
		}
	})
}

// An agent that answers the idle prompt with the log it asks for ("nothing
// worth doing", under inbox) is still idle: a themebox file that arrives
// next wakes it at once, named, as the docs promise, not only once
// idle.after has passed again.
func TestTheLogThatAnswersTheIdlePromptKeepsTheAgentIdle(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig(t)
		cfg.Idle = config.Idle{After: config.Duration(time.Second), Prompt: config.IdlePrompt(config.DeliveryInbox, lang.English)}
		rec := &recorder{method: config.DeliveryInbox}
		startFake(t, cfg, rec.factory)
		ws, _ := workspace.New(cfg.Workspace, nil)
		writeLog(t, ws, workspace.Thinking) // a workspace in use
		time.Sleep(1100 * time.Millisecond)
		synctest.Wait()
		if n := len(rec.prompts()); n != 1 {
			t.Fatalf("%d wakeups, want the idle one", n)
		}
		time.Sleep(100 * time.Millisecond)
		writeLog(t, ws, workspace.Other) // "nothing worth doing now"
		time.Sleep(300 * time.Millisecond)
		if err := ws.WriteFile("themebox/002_waves.md", []byte("# Waves\n")); err != nil {
			t.Fatal(err)
		}
		time.Sleep(300 * time.Millisecond)
		synctest.Wait()
		p := rec.prompts()
		if len(p) != 2 || !strings.Contains(p[1], "New while you were idle: themebox/002_waves.md") {
			t.Fatalf("the file that came after the idle prompt's log did not wake the agent at once: %q", p)
		}
	})
}

// A fresh workspace's first idle prompt asks for what the agent can do: no
// theme exists, and an activity log needs one, so it asks to start a theme,
// not for a log of type other. In both languages.
func TestAFreshWorkspacesIdlePromptStartsATheme(t *testing.T) {
	for _, tc := range []struct {
		l         lang.Lang
		want, not string
	}{{lang.English, "start_theme", "activity_type other"}, {lang.Japanese, "start_theme", "その他"}} {
		synctest.Test(t, func(t *testing.T) {
			cfg := testConfig(t)
			cfg.Language = tc.l
			cfg.Idle = config.Idle{After: config.Duration(time.Second), Prompt: config.IdlePrompt(config.DeliveryInbox, tc.l)}
			rec := &recorder{method: config.DeliveryInbox}
			startFake(t, cfg, rec.factory)
			time.Sleep(1100 * time.Millisecond)
			synctest.Wait()
			p := rec.prompts()
			if len(p) != 1 || !strings.Contains(p[0], tc.want) || strings.Contains(p[0], tc.not) {
				t.Fatalf("%s: the fresh workspace's idle prompt: %q", tc.l, p)
			}
		})
	}
}
