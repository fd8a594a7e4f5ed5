// Package agy is the adapter of the Antigravity CLI (agy). Its npm package
// is not on the registry here, so this follows its documented format, not
// a run of the binary: its hooks and the files init writes for it. It has
// no headless mode the watchdog drives: the agent reads its inbox.
package agy

import (
	"encoding/json"

	"github.com/ai-heart/ai-heart/internal/clients/client"
	"github.com/ai-heart/ai-heart/internal/hook"
)

// Name is what --client takes.
const Name = "agy"

// Adapter is the Antigravity CLI's.
type Adapter struct{}

var _ client.Adapter = Adapter{}

// Name is "agy".
func (Adapter) Name() string { return Name }

// Title is "Antigravity CLI".
func (Adapter) Title() string { return "Antigravity CLI" }

// Hooks is its hooks' dialect.
func (Adapter) Hooks() *hook.Dialect { return &Hooks }

// Exec: none the watchdog drives.
func (Adapter) Exec() *client.Exec { return nil }

// Transcripts: none read for usage.
func (Adapter) Transcripts() client.Transcripts { return nil }

// Failures: none known.
func (Adapter) Failures() map[string]client.Fate { return nil }

// Keys: a single Escape, as for any client whose keys are not known.
func (Adapter) Keys() client.Keys { return client.Keys{Escapes: 1} }

// Hooks is how its hooks speak, as documented: Claude Code's input fields;
// PreInvocation begins a turn and Stop ends it.
var Hooks = hook.Dialect{
	Client: Name,
	Kinds: map[string]hook.Kind{
		"SessionStart": hook.SessionStart, "PreInvocation": hook.TurnStart, "Stop": hook.TurnEnd,
		"PreToolUse": hook.Tool, "PostToolUse": hook.ToolDone,
	},
	Decode: decodeHook,
}

// payload is the part of a hook's input that is read; its last words may
// come under Claude Code's name or Gemini CLI's.
type payload struct {
	Event          string          `json:"hook_event_name"`
	Session        string          `json:"session_id"`
	Tool           string          `json:"tool_name"`
	Input          json.RawMessage `json:"tool_input"`
	TranscriptPath string          `json:"transcript_path"`
	LastMessage    *string         `json:"last_assistant_message"`
	PromptResponse *string         `json:"prompt_response"`
}

func decodeHook(data []byte) (hook.Input, error) {
	var p payload
	if err := json.Unmarshal(data, &p); err != nil {
		return hook.Input{}, err
	}
	in := hook.Input{Event: p.Event, Session: p.Session, Tool: p.Tool, ToolInput: p.Input, Transcript: p.TranscriptPath, Said: p.LastMessage}
	if p.PromptResponse != nil {
		in.Said = p.PromptResponse
	}
	return in, nil
}

// Setup: Sources: the Antigravity CLI docs on hooks (hooks.json in a
// customization root such as .agents/: top-level keys are hook names, each
// an object of events; PreToolUse/PostToolUse take [{matcher, hooks:
// [handler]}], PreInvocation, PostInvocation, Stop and SessionStart a flat
// [handler] list; timeout a whole number of seconds), as mirrored at
// gemini.meetcoding.cn/antigravity/hooks.html, and skillsaw's
// antigravity-hooks-valid rule (measured against agy 1.1.25: unknown
// handler keys are dropped, an invalid file loads no hook at all). The
// event decides the entry's shape, so the file has two on purpose: a
// matcher group under a flat event would read as a handler with no command
// and never run. MCP servers go in .agents/mcp_config.json under
// mcpServers, the shape of Antigravity's raw MCP config. Only
// SessionStart, PreInvocation, PostInvocation and Stop are said to fire in
// 1.1.x; the tool events are registered too, as documented, in case they
// do.
func (Adapter) Setup() client.Setup {
	return client.Setup{
		Files: []client.File{
			{Path: ".agents/mcp_config.json", Edits: []client.Edit{client.MCPServer{}}},
			{Path: ".agents/hooks.json", Edits: []client.Edit{client.NamedHooks{
				Flat:    []string{"SessionStart", "PreInvocation", "PostInvocation", "Stop"},
				Grouped: []string{"PreToolUse", "PostToolUse"},
			}}},
		},
		Note: "Antigravity CLI (agy): .agents/ follows its documented format; agy could not be run here\n" +
			"to confirm it, so check that `agy` lists mcp-heart and the heart-hook hook.",
	}
}

// Deny: no decision format known; its calls are not refused.
func (Adapter) Deny(string) []byte { return nil }

// HooksOff: no setting of its is known to turn its hooks off.
func (Adapter) HooksOff() []client.HooksOff { return nil }

// MCP: its calls are not refused, so none is told from mcp-heart's.
func (Adapter) MCP() *client.MCP { return nil }

// Decide: its hooks answer no question.
func (Adapter) Decide(string, bool, string) []byte { return nil }

// Statusline: none.
func (Adapter) Statusline() client.Statusline { return nil }

// Screen: none the watchdog reads.
func (Adapter) Screen() *client.Screen { return nil }

// Telemetry: none the watchdog reads.
func (Adapter) Telemetry() *client.OTLP { return nil }

// Context: its hooks hand a running turn nothing the watchdog uses.
func (Adapter) Context(string) []byte { return nil }
