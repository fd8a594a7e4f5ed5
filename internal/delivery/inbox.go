package delivery

import (
	"context"
	"fmt"
	"strings"
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
// reader sees the previous prompt or this one, never a mix. A prompt whose
// words, below its heartbeat line, are those the file holds already is
// not written again: the agent that pulls the file would take the same
// words under a new ID for a second wakeup.
func (i *Inbox) Deliver(ctx context.Context, prompt string) (Result, error) {
	start := time.Now()
	if err := ctx.Err(); err != nil {
		return Result{}, fmt.Errorf("deliver to inbox: %w", err)
	}
	// Read as the agent's file it is: bounded, never blocking on a FIFO.
	if old, err := i.ws.ReadAll(workspace.PromptFile, int64(len(prompt))+64); err == nil && words(string(old)) == words(prompt) {
		return Result{Duration: time.Since(start)}, nil
	}
	if err := i.ws.WriteFile(workspace.PromptFile, []byte(prompt)); err != nil {
		return Result{}, fmt.Errorf("deliver to inbox: %w", err)
	}
	return Result{Duration: time.Since(start)}, nil
}

// words is a prompt below its first line, the heartbeat line; a prompt of
// that line alone is its own words (a new ID is all it says).
func words(prompt string) string {
	_, rest, ok := strings.Cut(prompt, "\n")
	if !ok {
		return "\x00" + prompt
	}
	return rest
}

// Method returns "inbox".
func (i *Inbox) Method() string { return config.DeliveryInbox }

// Traits: the agent pulls the prompt and answers with a log or its turn's end.
func (i *Inbox) Traits() Traits { return Traits{} }
