package daemon

import (
	"context"
	"os"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/delivery"
	"github.com/ai-heart/ai-heart/internal/hook"
	"github.com/ai-heart/ai-heart/internal/pane"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// paneFake is a tmux pane the test draws: the screen the watchdog sees,
// the wakeups typed and the Escapes pressed.
type paneFake struct {
	fakeDeliverer
	mu      sync.Mutex
	screen  string
	busy    bool // a turn runs: no wakeup's text goes in until it ends
	escapes int
	typed   []string
}

// hold makes the pane busy (a running turn) or free.
func (p *paneFake) hold(busy bool) { p.mu.Lock(); p.busy = busy; p.mu.Unlock() }

// Await waits, as the tmux look does, until p may go in: a wakeup's text
// not into a running turn.
func (p *paneFake) Await(ctx context.Context, purpose pane.Purpose) error {
	for {
		p.mu.Lock()
		busy := p.busy
		p.mu.Unlock()
		if !busy || purpose != pane.Type {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
}

func (p *paneFake) show(screen string) { p.mu.Lock(); p.screen = screen; p.mu.Unlock() }

func (p *paneFake) Screen(context.Context) (string, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.screen, nil
}
func (p *paneFake) Interrupt(context.Context) error {
	p.mu.Lock()
	p.escapes += 2
	p.mu.Unlock()
	return nil
}
func (p *paneFake) Cancel(context.Context) error { p.mu.Lock(); p.escapes++; p.mu.Unlock(); return nil }
func (p *paneFake) SaveChat(context.Context, string) error {
	return nil
}

func (p *paneFake) counts() (escapes int, typed []string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.escapes, append([]string(nil), p.typed...)
}

func newPaneFake() *paneFake {
	p := &paneFake{}
	p.method = config.DeliveryTmux
	p.deliver = func(ctx context.Context, text string) (delivery.Result, error) {
		if err := p.Await(ctx, pane.Type); err != nil {
			return delivery.Result{}, err
		}
		p.mu.Lock()
		p.typed = append(p.typed, text)
		p.mu.Unlock()
		return delivery.Result{Sent: time.Now()}, nil
	}
	return p
}

// realScreen is a Claude Code 2.1.197 screen the pane reader's tests hold.
func realScreen(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile("../pane/testdata/claude-code/" + name + ".txt")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// A person who answers a permission dialog late, past three times the
// inactivity error, does not set off recovery against the agent: the
// dialog stands on the screen the whole time (the hooks' ask is not only
// believed), so the wait is the person's, and inactivity counts again
// from the answer. No inactivity error, no recovery, no Escape.
func TestASlowAnswerAtADialogIsNotTheAgents(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig(t) // inactivity 2s, 4s: the hooks alone hold it 6s, 12s at most
		cfg.Agent.Client = "claude-code"
		p := newPaneFake()
		p.show(realScreen(t, "dialog"))
		start := time.Now()
		h := startFake(t, cfg, func(config.Delivery, *workspace.Workspace) (delivery.Deliverer, error) { return p, nil })
		ws, _ := workspace.New(cfg.Workspace, nil)
		sleepTo(start, 200*time.Millisecond)
		said(t, ws, hook.Event{Kind: hook.Ask, Name: "Notification", Detail: "permission_prompt", Tool: "Bash"})
		sleepTo(start, 14*time.Second) // past 3 times the error
		if h.hasAlert("inactivity", "warning") || h.hasAlert("inactivity", "error") {
			t.Fatalf("an inactivity alert while the dialog stood on the screen: %v", alertsOf(t, h.alerts))
		}
		p.show(realScreen(t, "idle"))
		said(t, ws, hook.Event{Kind: hook.ToolDone, Name: "PostToolUse", Tool: "Bash"})
		sleepTo(start, 17500*time.Millisecond) // the answer plus less than the error
		esc, typed := p.counts()
		if h.hasAlert("inactivity", "error") || h.hasAlert("recovery", "warning") || esc != 0 {
			t.Fatalf("after a person's answer at 14 s: %d Escapes, alerts %v", esc, alertsOf(t, h.alerts))
		}
		for _, x := range typed {
			if strings.Contains(x, "RECOVERY") {
				t.Fatalf("a recovery prompt typed: %q", x)
			}
		}
		if st := h.state(); st.Recovery.Active {
			t.Fatalf("recovery %+v after a person's answer", st.Recovery)
		}
	})
}

// The agent cannot make its own ask line the person's time: a forged ask,
// with dialog words printed in its output above Claude Code's real, idle
// input box, is not a dialog on the screen, and stays bounded by the
// hooks' rule (the error past three times its threshold).
func TestAForgedAskOverAnIdleScreenStaysBounded(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig(t) // the hooks alone hold inactivity 6s, 12s at most
		cfg.Agent.Client = "claude-code"
		idle := strings.SplitN(realScreen(t, "idle"), "\n", 2)
		p := newPaneFake()
		p.show(idle[0] + "\n● Do you want to proceed?\n  ❯ 1. Yes\n    2. No\n" + idle[1])
		start := time.Now()
		h := startFake(t, cfg, func(config.Delivery, *workspace.Workspace) (delivery.Deliverer, error) { return p, nil })
		ws, _ := workspace.New(cfg.Workspace, nil)
		sleepTo(start, 200*time.Millisecond)
		said(t, ws, hook.Event{Kind: hook.Ask, Name: "Notification", Detail: "permission_prompt", Tool: "Bash"})
		sleepTo(start, 12500*time.Millisecond)
		if !h.hasAlert("inactivity", "error") {
			t.Fatalf("a forged ask over an idle screen held inactivity past the hooks' bound: %v", alertsOf(t, h.alerts))
		}
	})
}
