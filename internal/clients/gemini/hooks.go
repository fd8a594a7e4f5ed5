package gemini

import (
	"encoding/json"

	"github.com/ai-heart/ai-heart/internal/clients/client"
	"github.com/ai-heart/ai-heart/internal/hook"
)

// Hooks is how Gemini CLI's hooks speak: Claude Code's input fields under
// its own event names.
var Hooks = hook.Dialect{
	Client: Name,
	Kinds: map[string]hook.Kind{
		"SessionStart": hook.SessionStart, "SessionEnd": hook.SessionEnd,
		"BeforeAgent": hook.TurnStart, "AfterAgent": hook.TurnEnd,
		"BeforeTool": hook.Tool, "AfterTool": hook.ToolDone, "PreCompress": hook.Compact,
	},
	Decode: decodeHook,
}

// payload is the part of a hook's input that is read.
type payload struct {
	Event            string          `json:"hook_event_name"`
	Session          string          `json:"session_id"`
	Tool             string          `json:"tool_name"`
	Input            json.RawMessage `json:"tool_input"`
	NotificationType string          `json:"notification_type"`
	TranscriptPath   string          `json:"transcript_path"`
	PromptResponse   *string         `json:"prompt_response"` // AfterAgent
}

func decodeHook(data []byte) (hook.Input, error) {
	var p payload
	if err := json.Unmarshal(data, &p); err != nil {
		return hook.Input{}, err
	}
	in := hook.Input{Event: p.Event, Session: p.Session, Tool: p.Tool, ToolInput: p.Input, Transcript: p.TranscriptPath, Said: p.PromptResponse}
	if p.Event == "Notification" {
		// ToolPermission: a tool call waits for a person's approval.
		in.Detail, in.Asks = p.NotificationType, p.NotificationType == "ToolPermission"
	}
	return in, nil
}

// Deny refuses a BeforeTool call: Gemini CLI 0.61 reads {"decision":
// "deny", "reason": …} and sends the reason to the model as the tool's
// error; the turn goes on.
func (Adapter) Deny(reason string) []byte {
	b, _ := json.Marshal(map[string]string{"decision": "deny", "reason": reason})
	return b
}

// Decide: none. Gemini CLI 0.61 reads nothing back from its Notification
// hook (ToolPermission: "side-effects via callbacks are disallowed"), and
// awaits it before drawing the dialog, so a hook that held would hide the
// dialog; BeforeTool decides before every call, not the one that waits.
func (Adapter) Decide(string, bool, string) []byte { return nil }

// Statusline: none.
func (Adapter) Statusline() client.Statusline { return nil }

// Context hands the running turn text after a tool call: AfterTool's
// additionalContext, which Gemini CLI appends to the tool's result.
func (Adapter) Context(text string) []byte {
	b, _ := json.Marshal(map[string]any{"hookSpecificOutput": map[string]any{
		"hookEventName": "AfterTool", "additionalContext": text}})
	return b
}
