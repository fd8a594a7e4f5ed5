package delivery

import (
	"context"
	"fmt"

	"github.com/ai-heart/ai-heart/internal/clients"
)

// InterruptClient stops what the client in the pane is doing, with its own
// keys (its adapter's: one Escape, or two where the first cancels and the
// second clears the input), and saves its chat under name where the client
// keeps chats only when asked (Gemini CLI's "/chat save"); the others keep
// every session themselves, so nothing else is typed. An unknown client
// gets the single Escape. It reports what it typed.
func InterruptClient(ctx context.Context, in Interrupter, client, name string) (typed string, err error) {
	keys := clients.Keys(client)
	if keys.Escapes < 2 {
		if err := in.Cancel(ctx); err != nil {
			return "", err
		}
		return "Escape", nil
	}
	if err := in.Interrupt(ctx); err != nil {
		return "", err
	}
	if name == "" || !keys.SavesChat {
		return "Escape Escape", nil
	}
	if err := in.SaveChat(ctx, name); err != nil {
		return "Escape Escape", fmt.Errorf("recovery: save chat: %w", err)
	}
	return "Escape Escape, /chat save " + name, nil
}
