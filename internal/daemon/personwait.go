package daemon

import (
	"context"
	"time"

	"github.com/ai-heart/ai-heart/internal/delivery"
	"github.com/ai-heart/ai-heart/internal/pane"
)

// A person's minutes at a dialog are not the agent's: where the watchdog
// can see the client's screen (tmux), an ask the hooks report is looked
// for there. A dialog on the screen holds inactivity off for as long as it
// stands, and its answer restarts the count; an ask no screen showed is
// the hooks' word alone, which the agent can write, and stays bounded
// (checks.HooksAlone).

// screenTimeout bounds one look at the screen.
const screenTimeout = 2 * time.Second

// seeAsk looks at the client's screen, beside the pulse, while the hooks
// say a person is asked; what it sees the next pulse judges.
func (a *agent) seeAsk() {
	sc, ok := a.deliver.(delivery.Screener)
	if !ok {
		return
	}
	a.mu.Lock()
	asking := a.activity.Asking
	a.mu.Unlock()
	if !asking || !a.seeing.CompareAndSwap(false, true) {
		return
	}
	a.bg.Go(func() {
		defer a.seeing.Store(false)
		ctx, cancel := context.WithTimeout(context.Background(), screenTimeout)
		defer cancel()
		screen, err := sc.Screen(ctx)
		if err != nil {
			return // the keys' own look says what is wrong with the pane
		}
		v := pane.Read(screen, a.cfg.Agent.Client)
		a.mu.Lock()
		a.sawScreenLocked(v)
		a.mu.Unlock()
	})
}

// sawScreenLocked folds in a screen the watchdog read: the dialog of the
// ask the hooks reported, or the input line with none. Called with a.mu
// held.
func (a *agent) sawScreenLocked(v pane.View) {
	if !v.Known {
		return // a screen the watchdog does not know says nothing either way
	}
	a.activity.SawScreen(a.clock.Now(), v.Asks != "", v.Ready, pane.AskGrace)
}
