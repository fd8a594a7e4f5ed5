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

// TestUrgentFeedbackKeepsItsMarkUnderInbox: under inbox delivery each
// wakeup replaces stats/heartbeat_prompt.md, so a later wakeup must not
// announce an urgent file as one more item that came while idle: the
// prompt the agent reads last still says the file is urgent, and so does
// the feedback notice until the file is taken, although the file has lost
// its interrupt. prefix.
func TestUrgentFeedbackKeepsItsMarkUnderInbox(t *testing.T) {
	for _, tt := range []struct {
		lang              lang.Lang
		urgent, idle, own string
	}{
		{lang.English, "feedbackbox/fix-it.md (urgent)", "New while you were idle", "Urgent feedback: feedbackbox/fix-it.md"},
		{lang.Japanese, "feedbackbox/fix-it.md（緊急）", "待機中に届いたもの", "緊急のフィードバック：feedbackbox/fix-it.md"},
	} {
		t.Run(string(tt.lang), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				cfg := testConfig(t)
				cfg.DailyCap = 20
				cfg.Language = tt.lang
				cfg.Idle.After = config.Duration(time.Second)
				rec := &recorder{method: config.DeliveryInbox}
				startFake(t, cfg, rec.factory)
				ws, _ := workspace.New(cfg.Workspace, nil)
				time.Sleep(1500 * time.Millisecond) // the idle wakeup goes out: the agent is idle
				synctest.Wait()
				before := len(rec.prompts())
				if before == 0 {
					t.Fatal("no idle wakeup after idle.after")
				}
				if err := ws.WriteFile("feedbackbox/interrupt.fix-it.md", []byte("Fix it.\n")); err != nil {
					t.Fatal(err)
				}
				time.Sleep(800 * time.Millisecond)
				synctest.Wait()
				p := rec.prompts()[before:]
				if len(p) == 0 {
					t.Fatal("no wakeup for the urgent feedback")
				}
				for _, q := range p {
					if strings.Contains(q, tt.idle) && strings.Contains(q, "fix-it.md") {
						t.Errorf("the urgent file is announced as new while idle:\n%s", q)
					}
				}
				// The urgent wakeup's own text, or a later one's feedback notice.
				if last := p[len(p)-1]; !strings.Contains(last, tt.urgent) && !strings.Contains(last, tt.own) {
					t.Errorf("the prompt the agent reads last does not mark the file urgent (%q):\n%s", tt.urgent, last)
				}
			})
		})
	}
}
