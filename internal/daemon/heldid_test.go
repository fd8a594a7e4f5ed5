package daemon

import (
	"context"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/delivery"
	"github.com/ai-heart/ai-heart/internal/pane"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// readyDeliverer is a pane whose look holds a wakeup's text (a dialog)
// until open is closed.
type readyDeliverer struct {
	fakeDeliverer
	open chan struct{}
}

// Await is the pane's look before any key, as tmux's.
func (r *readyDeliverer) Await(ctx context.Context, _ pane.Purpose) error { return r.Ready(ctx) }

func (r *readyDeliverer) Ready(ctx context.Context) error {
	select {
	case <-r.open:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// A wakeup held at a dialog is typed with the heartbeat ID current when it
// goes in, the one the tools name files with: it carried the ID of the
// moment it was composed, seconds or minutes older.
func TestAHeldWakeupCarriesTheIDOfItsTyping(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig(t)
		cfg.Agent.Delivery = config.DeliveryTmux
		cfg.Schedule.Every = config.Duration(time.Second)
		ws, _ := workspace.New(cfg.Workspace, nil)
		type typed struct{ prompt, current string }
		got := make(chan typed, 8)
		d := &readyDeliverer{open: make(chan struct{})}
		d.fakeDeliverer = fakeDeliverer{method: config.DeliveryTmux, deliver: func(ctx context.Context, p string) (delivery.Result, error) {
			if err := d.Ready(ctx); err != nil { // as tmux's own typing waits for the look
				return delivery.Result{}, err
			}
			id, _ := ws.ReadCurrentID()
			got <- typed{p, string(id)}
			return delivery.Result{}, nil
		}}
		startFake(t, cfg, func(config.Delivery, *workspace.Workspace) (delivery.Deliverer, error) { return d, nil })
		time.Sleep(1100 * time.Millisecond) // the first scheduled wakeup waits at the dialog
		synctest.Wait()
		time.Sleep(5 * time.Second) // pulses mint new IDs meanwhile
		close(d.open)
		synctest.Wait()
		w := <-got
		if first, _, _ := strings.Cut(w.prompt, "\n"); first != "Heartbeat: "+w.current {
			t.Fatalf("the held wakeup went in as %q while the current ID was %s", first, w.current)
		}
	})
}

// The same for urgent feedback held at a dialog: its words go in with the
// ID of their moment.
func TestAHeldUrgentNoteCarriesTheIDOfItsTyping(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig(t)
		cfg.Agent.Delivery = config.DeliveryTmux
		ws, _ := workspace.New(cfg.Workspace, nil)
		type typed struct{ prompt, current string }
		got := make(chan typed, 8)
		d := &readyDeliverer{open: make(chan struct{})}
		d.fakeDeliverer = fakeDeliverer{method: config.DeliveryTmux, deliver: func(ctx context.Context, p string) (delivery.Result, error) {
			if err := d.Ready(ctx); err != nil {
				return delivery.Result{}, err
			}
			id, _ := ws.ReadCurrentID()
			got <- typed{p, string(id)}
			return delivery.Result{}, nil
		}}
		cfg.Thresholds.InactivityWarning, cfg.Thresholds.InactivityError = config.Duration(time.Minute), config.Duration(2*time.Minute)
		writeLog(t, ws, workspace.Thinking) // no recovery to take over
		startFake(t, cfg, func(config.Delivery, *workspace.Workspace) (delivery.Deliverer, error) { return d, nil })
		if err := ws.WriteFile("feedbackbox/interrupt.001_note.md", []byte("Look at the tide tables.\n")); err != nil {
			t.Fatal(err)
		}
		time.Sleep(1100 * time.Millisecond) // the urgent wakeup waits at the dialog
		synctest.Wait()
		time.Sleep(5 * time.Second)
		close(d.open)
		synctest.Wait()
		w := <-got
		if !strings.Contains(w.prompt, "Urgent feedback") {
			t.Fatalf("not the urgent wakeup: %q", w.prompt)
		}
		if first, _, _ := strings.Cut(w.prompt, "\n"); first != "Heartbeat: "+w.current {
			t.Fatalf("the held urgent wakeup went in as %q while the current ID was %s", first, w.current)
		}
	})
}
