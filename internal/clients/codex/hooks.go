package codex

import (
	"encoding/json"

	"github.com/ai-heart/ai-heart/internal/clients/client"
	"github.com/ai-heart/ai-heart/internal/hook"
)

// Hooks is how Codex's hooks speak: Claude Code's input fields and event
// names, and its notify program's own JSON (given as the last argument):
// {"type":"agent-turn-complete","thread-id":…,"last-assistant-message":…}.
var Hooks = hook.Dialect{
	Client: Name,
	Kinds: map[string]hook.Kind{
		"SessionStart": hook.SessionStart, "SessionEnd": hook.SessionEnd,
		"UserPromptSubmit": hook.TurnStart, "Stop": hook.TurnEnd, "agent-turn-complete": hook.TurnEnd,
		"PreToolUse": hook.Tool, "PostToolUse": hook.ToolDone,
		"PermissionRequest": hook.Ask, "PreCompact": hook.Compact,
	},
	Decode: decodeHook,
}

// payload is the part of a hook's or notify's input that is read.
type payload struct {
	Event          string          `json:"hook_event_name"`
	Session        string          `json:"session_id"`
	Tool           string          `json:"tool_name"`
	Input          json.RawMessage `json:"tool_input"`
	TranscriptPath string          `json:"transcript_path"`
	LastMessage    *string         `json:"last_assistant_message"` // the Stop hook

	NotifyType   string  `json:"type"`
	NotifyThread string  `json:"thread-id"`
	NotifyLast   *string `json:"last-assistant-message"`
}

func decodeHook(data []byte) (hook.Input, error) {
	var p payload
	if err := json.Unmarshal(data, &p); err != nil {
		return hook.Input{}, err
	}
	in := hook.Input{Event: p.Event, Session: p.Session, Tool: p.Tool, ToolInput: p.Input, Transcript: p.TranscriptPath, Said: p.LastMessage}
	if in.Event == "" {
		in.Event, in.Session = p.NotifyType, p.NotifyThread
	}
	if p.NotifyLast != nil {
		in.Said = p.NotifyLast
	}
	if p.Event == "PermissionRequest" {
		in.Detail = "permission"
	}
	return in, nil
}

// Deny refuses a PreToolUse call as Claude Code's hooks do: Codex 0.169
// reads hookSpecificOutput's permissionDecision "deny" with a non-empty
// permissionDecisionReason (it rejects "allow" and "ask" there).
func (Adapter) Deny(reason string) []byte {
	b, _ := json.Marshal(map[string]any{"hookSpecificOutput": map[string]any{
		"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": reason}})
	return b
}

// Decide: none. Codex 0.169's PermissionRequest hook takes Claude Code's
// decision ({"hookSpecificOutput": {"hookEventName": "PermissionRequest",
// "decision": {"behavior": "allow"|"deny", "message": …}}}, its output
// schema; an allow runs the call), but its terminal runs that hook before
// it draws its own approval, and waits for it: a hook that held for a
// person afar would keep the approval from the person at the terminal
// (TestCodexPermissionHookHidesItsApproval).
func (Adapter) Decide(string, bool, string) []byte { return nil }

// Statusline: none read (its rate limits are in its session's token_count
// events, which no hook carries).
func (Adapter) Statusline() client.Statusline { return nil }

// Context: its hooks hand a running turn nothing the watchdog uses.
func (Adapter) Context(string) []byte { return nil }
