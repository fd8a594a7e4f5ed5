package delivery

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/ai-heart/ai-heart/internal/pane"
)

// Looking before acting: every key the watchdog sends a pane waits for
// its Look (the client's screen and hooks: no dialog, no person's unsent
// words, and for a wakeup no turn running), and a typed wakeup counts only
// once the client shows it received.

// received waits until the client shows the wakeup received: its first
// line once more in the pane's history than before it was typed, or a
// prompt its hooks reported since typed. Without a look it is not asked.
func (t *Tmux) received(ctx context.Context, first string, seen int, typed time.Time) error {
	if t.Look == nil {
		return nil
	}
	wait := t.Confirm
	if wait <= 0 {
		wait = DefaultConfirm
	}
	deadline := time.Now().Add(wait)
	for {
		if t.Heard != nil && t.Heard(typed) {
			return nil
		}
		h, err := t.capture(ctx, true)
		if err != nil {
			return err
		}
		if strings.Count(h, first) > seen {
			return nil
		}
		if !time.Now().Before(deadline) {
			return fmt.Errorf("%w within %s of its Enter", ErrNotReceived, wait)
		}
		if err := t.sleep(ctx, t.every()); err != nil {
			return err
		}
	}
}

// look asks Look about the pane as it is now; OK without a Look.
func (t *Tmux) look(ctx context.Context, p pane.Purpose) (pane.Verdict, error) {
	if t.Look == nil {
		return pane.Verdict{OK: true}, nil
	}
	screen, err := t.capture(ctx, false)
	if err != nil {
		return pane.Verdict{}, err
	}
	return t.Look(screen, p), nil
}

// Await looks at the pane until p may be sent, telling Waits each new
// reason it may not; it ends early only with ctx.
func (t *Tmux) Await(ctx context.Context, p pane.Purpose) error {
	last := ""
	for {
		v, err := t.look(ctx, p)
		if err != nil {
			return err
		}
		if v.OK {
			if last != "" && t.Waits != nil {
				t.Waits("")
			}
			return nil
		}
		if v.Why != last {
			last = v.Why
			if t.Waits != nil {
				t.Waits(v.Why)
			}
		}
		if err := t.sleep(ctx, t.every()); err != nil {
			return fmt.Errorf("waited for the pane (%s): %w", last, err)
		}
	}
}

// Screen is the pane's screen as it is now.
func (t *Tmux) Screen(ctx context.Context) (string, error) { return t.capture(ctx, false) }

// capture is the pane's screen, or with history its whole scrollback,
// wrapped lines joined.
func (t *Tmux) capture(ctx context.Context, history bool) (string, error) {
	args := []string{"capture-pane", "-p", "-J", "-t", t.Target}
	if history {
		args = append(args, "-S", "-")
	}
	var out bytes.Buffer
	if err := t.runOut(ctx, nil, &out, args...); err != nil {
		return "", fmt.Errorf("look at the pane: %w", err)
	}
	return out.String(), nil
}

func (t *Tmux) every() time.Duration {
	if t.LookEvery <= 0 {
		return DefaultLookEvery
	}
	return t.LookEvery
}
