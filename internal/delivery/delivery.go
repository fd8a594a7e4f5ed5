package delivery

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/cost"
	"github.com/ai-heart/ai-heart/internal/pane"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// Result is what one delivery produced.
type Result struct {
	// Reply is the exec child's stdout (at most MaxReply bytes); empty for
	// inbox and tmux, whose agents answer through the workspace.
	Reply string
	// Said is what the model itself said: the stream's reply with
	// stream-json, else Reply without the lines the client printed of its
	// own. A ghost is judged on it.
	Said string
	// Truncated reports that the child wrote more than MaxReply bytes and
	// Reply holds only the first MaxReply.
	Truncated bool
	// ExitCode is the exec child's exit code (-1 when it was killed by a
	// signal); 0 for inbox and tmux.
	ExitCode int
	// Signal names the signal that ended the exec child (SIGTERM, SIGKILL),
	// if one did.
	Signal string
	// Duration is how long the delivery took.
	Duration time.Duration
	// Sent is when a tmux wakeup's text began to go into the pane, once
	// its look allowed it (zero for the others): the wakeup begins there,
	// not when it began to wait.
	Sent time.Time
	// ToolCalls is how many tool calls an exec run with stream-json output
	// made (0 otherwise).
	ToolCalls int
	// Usage is what an exec run with stream-json output reported (tokens,
	// and the client's own price when it gives one); nil when it reported
	// nothing, or for other deliveries: unknown, never 0.
	Usage *cost.Usage
	// ServiceError is why the model's service failed an exec run with
	// stream-json output, as the client names it (rate_limit, overloaded,
	// authentication_failed, billing_error, ...); "" if it did not.
	ServiceError string
	// Refused names the tools whose calls the client refused in an exec run
	// with stream-json output (distinct, at most MaxRefusedTools), and
	// RefusedCalls counts those calls; see ErrRefused.
	Refused      []string
	RefusedCalls int
	// State is the client's last word on its session's state (Claude
	// Code's session_state_changed: idle, running, requires_action), Ended
	// why its turn loop ended (result.terminal_reason), WritesLost what it
	// could not save for a full disk ("ENOSPC: transcript"), Retries the
	// retries it announced; "" or 0 where it said none.
	State, Ended, WritesLost string
	Retries                  int
	// RetryCapped: the client announced retry waits past agent.retry_wait_max
	// and the run was not lengthened past it.
	RetryCapped bool
}

// Deliverer wakes the agent with a prompt.
type Deliverer interface {
	// Deliver hands prompt to the agent. An error is a delivery failure and
	// counts toward the circuit breaker.
	Deliver(ctx context.Context, prompt string) (Result, error)
	// Method names the delivery method: "inbox", "tmux" or "exec".
	Method() string
	// Traits say what a wakeup it delivered is, and what answers it.
	Traits() Traits
}

// Traits are what a delivery method means for the wakeup's life: they, not
// the method's name, decide what answers a wakeup.
type Traits struct {
	// RunIsTheWork: the delivery is the agent's whole turn (exec). The
	// working stretch begins with it, its successful end answers the
	// wakeup, and its stdout is the reply (the transcript, the cost).
	// Otherwise the agent answers in its own time: the turn's end from the
	// client's hooks, else an activity log written after the wakeup.
	RunIsTheWork bool
	// Holds: the wakeup stays in flight until the agent answers it (tmux),
	// so no new prompt is pushed into a busy pane.
	Holds bool
}

// Screener is implemented by deliverers that can show the agent's screen
// (tmux: the pane), for the watchdog to see the dialog the hooks say a
// person is asked in.
type Screener interface {
	Screen(ctx context.Context) (string, error)
}

// Awaiter is implemented by deliverers whose keys wait for the agent's
// screen (tmux: the pane's look): Await returns once p may be sent.
type Awaiter interface {
	Await(ctx context.Context, p pane.Purpose) error
}

// Interrupter is implemented by deliverers that can interrupt a running
// agent (tmux).
type Interrupter interface {
	// Interrupt stops what the agent is doing (tmux: Escape twice).
	Interrupt(ctx context.Context) error
	// Cancel presses Escape once: what Claude Code and Codex read as
	// "stop the turn" (a second Escape there opens a history menu).
	Cancel(ctx context.Context) error
	// SaveChat asks Gemini CLI to save its conversation under name
	// ("/chat save NAME", then Enter).
	SaveChat(ctx context.Context, name string) error
}

// ErrTimeout reports that an exec delivery ran past its timeout and was
// killed.
var ErrTimeout = errors.New("agent command timed out")

// New returns the deliverer agent.Delivery selects ("" means inbox). The
// settings are validated once, by config (tmux_target, command, timeout);
// New trusts them. An exec agent runs in the workspace's root folder, where
// Gemini CLI finds its GEMINI.md and .gemini/settings.json.
func New(agent config.Delivery, ws *workspace.Workspace) (Deliverer, error) {
	switch agent.Delivery {
	case config.DeliveryInbox, "":
		if ws == nil {
			return nil, errors.New("create inbox delivery: no workspace")
		}
		return NewInbox(ws), nil
	case config.DeliveryTmux:
		t := NewTmux(agent.TmuxTarget, agent.TmuxSocket)
		t.LookEvery, t.Confirm = agent.TmuxLook.D(), agent.TmuxConfirm.D()
		return t, nil
	case config.DeliveryExec:
		e := NewExec(agent.Command, agent.Timeout.D())
		e.StreamJSON, e.MaxToolCalls = agent.Output == config.OutputStreamJSON, agent.MaxToolCalls
		e.StopGrace, e.RetryMax = agent.StopGrace.D(), agent.RetryWaitMax.D()
		if ws != nil {
			e.Dir = ws.Root
		}
		return e, nil
	default:
		return nil, fmt.Errorf("create delivery: %q is not one of inbox, tmux, exec", agent.Delivery)
	}
}
