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
		// Not wired by init: 2.1.197 does not know it, and its terminal UI
		// then stops at a "Settings Warning" dialog until a person answers.
		// Read where a person wires it (2.1.332 and 2.1.337 send it).
		"PostModelSwitch": hook.ModelSwitch,
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
	// Stop (2.1.197 and 2.1.337 alike): the background work in flight and
	// the session's own crons (CronCreate, ScheduleWakeup, /loop), each
	// {id, schedule, recurring, prompt}. Raw: a field of a wrong type
	// loses that field, never the turn's end.
	BackgroundTasks json.RawMessage `json:"background_tasks"`
	SessionCrons    json.RawMessage `json:"session_crons"`
	// PostModelSwitch (2.1.337; not in 2.1.197): the model switched to,
	// and who switched it (command, picker, sdk, auto, resume).
	ToModel string `json:"to_model"`
	Source  string `json:"source"`
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
	case "Stop":
		var tasks []json.RawMessage
		if json.Unmarshal(p.BackgroundTasks, &tasks) == nil {
			in.Tasks = len(tasks)
		}
		in.Crons = crons(p.SessionCrons)
	case "PostModelSwitch":
		in.Model, in.Detail = p.ToModel, p.Source
	}
	return in, nil
}

// crons reads the Stop hook's session_crons: an entry that is not an
// object with a string schedule is no cron and is passed over.
func crons(raw json.RawMessage) []hook.Cron {
	var list []json.RawMessage
	if json.Unmarshal(raw, &list) != nil {
		return nil
	}
	out := make([]hook.Cron, 0, min(len(list), hook.MaxTasks))
	for _, r := range list {
		var c struct {
			ID        string `json:"id"`
			Schedule  string `json:"schedule"`
			Recurring bool   `json:"recurring"`
		}
		if json.Unmarshal(r, &c) != nil || c.Schedule == "" {
			continue
		}
		out = append(out, hook.Cron{ID: c.ID, Schedule: c.Schedule, Recurring: c.Recurring})
	}
	return out
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
