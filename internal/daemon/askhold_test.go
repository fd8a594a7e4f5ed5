package daemon

import (
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/config"
)

// A headless run's question is offered for half the run's timeout at
// most: nobody may be watching, and the run must end on the client's own
// refusal, not at its timeout (Claude Code -p asks the hooks too). A
// pane's question is offered for asks.hold.
func TestAHeadlessRunsQuestionEndsBeforeTheRun(t *testing.T) {
	cfg := testConfig(t)
	cfg.Asks.Hold = config.Duration(30 * time.Minute)
	cfg.Agent.Timeout = config.Duration(600 * time.Second)
	for _, c := range []struct {
		delivery string
		want     time.Duration
	}{
		{config.DeliveryExec, 300 * time.Second},
		{config.DeliveryTmux, 30 * time.Minute},
		{config.DeliveryInbox, 30 * time.Minute},
	} {
		cfg.Agent.Delivery = c.delivery
		a := &agent{agentWiring: agentWiring{cfg: cfg.AgentConfig}}
		if got := a.askHold(); got != c.want {
			t.Errorf("%s: a question is offered for %s, want %s", c.delivery, got, c.want)
		}
	}
}
