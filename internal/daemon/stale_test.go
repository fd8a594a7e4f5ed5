package daemon

import (
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/delivery"
	"github.com/ai-heart/ai-heart/internal/state"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// A takeover's text waits with its key for the pane (a running turn); what
// caused it may be gone by the time the pane is free. Recovery finished (a
// log came), recovery gave up, the urgent file taken: nothing stale is
// typed. The text is composed, or dropped, once the key may go in.
func TestHeldTextsAreCheckedAfterTheWait(t *testing.T) {
	for _, tc := range []struct {
		name     string
		setup    func(cfg *config.Config)
		meantime func(t *testing.T, ws *workspace.Workspace) // while the pane is busy
		stale    string                                      // what must not be typed after the wait
		source   string                                      // the wakeup found moot
	}{
		{"recovery finished", func(cfg *config.Config) {}, func(t *testing.T, ws *workspace.Workspace) {
			writeLog(t, ws, workspace.Recovery)
		}, "RECOVERY", srcRecovery},
		{"recovery gave up", func(cfg *config.Config) {
			cfg.Recovery = config.Recovery{MaxAttempts: 1, MaxWaitCycles: 3}
		}, func(t *testing.T, ws *workspace.Workspace) {}, "RECOVERY", srcRecovery},
		{"urgent file taken", func(cfg *config.Config) {
			cfg.Thresholds.InactivityWarning, cfg.Thresholds.InactivityError = config.Duration(time.Hour), config.Duration(2*time.Hour)
		}, func(t *testing.T, ws *workspace.Workspace) {
			if err := ws.WriteFile("feedbackbox/processed.fix-it.md", []byte("Fix it.\n")); err != nil {
				t.Fatal(err)
			}
			if err := ws.Remove("feedbackbox/fix-it.md"); err != nil {
				t.Fatal(err)
			}
		}, "fix-it.md", srcFeedback},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				cfg := testConfig(t) // inactivity 2s, 4s
				cfg.DailyCap = 20
				tc.setup(cfg)
				p := newPaneFake()
				p.show(realScreen(t, "busy-tip"))
				p.hold(true)
				start := time.Now()
				h := startFake(t, cfg, func(config.Delivery, *workspace.Workspace) (delivery.Deliverer, error) { return p, nil })
				ws, _ := workspace.New(cfg.Workspace, nil)
				if tc.stale == "fix-it.md" {
					sleepTo(start, 300*time.Millisecond)
					if err := ws.WriteFile("feedbackbox/interrupt.fix-it.md", []byte("Fix it.\n")); err != nil {
						t.Fatal(err)
					}
				}
				sleepTo(start, 5500*time.Millisecond) // the takeover waits for the turn's end
				tc.meantime(t, ws)
				sleepTo(start, 7*time.Second)
				p.hold(false)
				sleepTo(start, 9*time.Second)
				_, typed := p.counts()
				for _, x := range typed {
					if strings.Contains(x, tc.stale) {
						t.Fatalf("typed after its cause was gone (%q):\n%s", tc.stale, x)
					}
				}
				if n := h.state().Counters.BySource[tc.source][state.OutcomeMoot]; n == 0 {
					t.Fatalf("no %s wakeup counted moot: %v", tc.source, h.state().Counters.BySource)
				}
			})
		})
	}
}
