package delivery

import (
	"context"
	"fmt"
)

// InterruptClient stops what the client in the pane is doing, with its own
// keys, and saves its chat under name where the client keeps chats only
// when asked: Gemini CLI cancels on the first Escape and clears the input on
// the second, and saves with "/chat save"; Claude Code and Codex stop on one
// Escape (a second opens their history menus, which would swallow the next
// prompt) and keep every session themselves, so nothing else is typed. An
// unknown client gets the single Escape. It reports what it typed.
func InterruptClient(ctx context.Context, in Interrupter, client, name string) (typed string, err error) {
	if client != "gemini" {
		if err := in.Cancel(ctx); err != nil {
			return "", err
		}
		return "Escape", nil
	}
	if err := in.Interrupt(ctx); err != nil {
		return "", err
	}
	if name == "" {
		return "Escape Escape", nil
	}
	if err := in.SaveChat(ctx, name); err != nil {
		return "Escape Escape", fmt.Errorf("recovery: save chat: %w", err)
	}
	return "Escape Escape, /chat save " + name, nil
}
