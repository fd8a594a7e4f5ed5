package delivery

import (
	"context"
	"fmt"
	"time"

	"github.com/ai-heart/ai-heart/internal/config"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// Inbox writes the prompt to stats/heartbeat_prompt.md for agents that pull
// it. No agent process is touched.
type Inbox struct {
	ws *workspace.Workspace
}

var _ Deliverer = (*Inbox)(nil)

// NewInbox returns the inbox deliverer of ws.
func NewInbox(ws *workspace.Workspace) *Inbox { return &Inbox{ws: ws} }

// Deliver atomically replaces stats/heartbeat_prompt.md with prompt: a
// reader sees the previous prompt or this one, never a mix.
func (i *Inbox) Deliver(ctx context.Context, prompt string) (Result, error) {
	start := time.Now()
	if err := ctx.Err(); err != nil {
		return Result{}, fmt.Errorf("deliver to inbox: %w", err)
	}
	if err := i.ws.WriteFile(workspace.PromptFile, []byte(prompt)); err != nil {
		return Result{}, fmt.Errorf("deliver to inbox: %w", err)
	}
	return Result{Duration: time.Since(start)}, nil
}

// Method returns "inbox".
func (i *Inbox) Method() string { return config.DeliveryInbox }

// Traits: the agent pulls the prompt and answers with a log or its turn's end.
func (i *Inbox) Traits() Traits { return Traits{} }
