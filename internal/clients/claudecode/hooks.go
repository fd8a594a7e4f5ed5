package claudecode

import (
	"encoding/json"

	"github.com/ai-heart/ai-heart/internal/hook"
)

// Hooks is how Claude Code's hooks speak: the events init wires
// (setup.go), the fields of their input.
var Hooks = hook.Dialect{
	Client: Name,
	Kinds: map[string]hook.Kind{
		"SessionStart": hook.SessionStart, "SessionEnd": hook.SessionEnd,
		"UserPromptSubmit": hook.TurnStart, "Stop": hook.TurnEnd, "StopFailure": hook.Failure,
		"PreToolUse": hook.Tool, "PostToolUse": hook.ToolDone, "PostToolUseFailure": hook.ToolFailed,
		"PermissionRequest": hook.Ask, "PermissionDenied": hook.Refused, "PreCompact": hook.Compact,
	},
	Decode:    decodeHook,
	Questions: []string{"AskUserQuestion"},
}

// payload is the part of a hook's input that is read.
type payload struct {
	Event            string          `json:"hook_event_name"`
	Session          string          `json:"session_id"`
	Tool             string          `json:"tool_name"`
	Input            json.RawMessage `json:"tool_input"`
	NotificationType string          `json:"notification_type"`
	Error            json.RawMessage `json:"error"` // StopFailure: a type word; PostToolUseFailure: text (never kept)
	TranscriptPath   string          `json:"transcript_path"`
	LastMessage      *string         `json:"last_assistant_message"` // Stop
}

func decodeHook(data []byte) (hook.Input, error) {
	var p payload
	if err := json.Unmarshal(data, &p); err != nil {
		return hook.Input{}, err
	}
	in := hook.Input{Event: p.Event, Session: p.Session, Tool: p.Tool, ToolInput: p.Input, Transcript: p.TranscriptPath, Said: p.LastMessage}
	switch p.Event {
	case "Notification":
		in.Detail, in.Asks = p.NotificationType, AsksPerson(p.NotificationType)
	case "PermissionRequest":
		in.Detail = "permission"
	case "StopFailure":
		var typ string
		if json.Unmarshal(p.Error, &typ) == nil {
			in.Detail = typ
		}
	}
	return in, nil
}

// AsksPerson reports a notification that waits for a person: a permission
// prompt, or a form to fill (elicitation_dialog).
func AsksPerson(typ string) bool {
	switch typ {
	case "permission_prompt", "worker_permission_prompt", "elicitation_dialog":
		return true
	}
	return false
}
