package hook

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Clients whose hooks heart-hook understands.
const (
	ClaudeCode = "claude-code"
	Gemini     = "gemini"
	Agy        = "agy"
	Codex      = "codex"
)

// Clients lists them, for flags and errors.
var Clients = []string{ClaudeCode, Gemini, Agy, Codex}

// Kind is what an event means, the same for every client.
type Kind string

// Kinds of event.
const (
	TurnStart    Kind = "turn_start"    // a prompt reached the agent (UserPromptSubmit, BeforeAgent)
	TurnEnd      Kind = "turn_end"      // the agent finished answering (Stop, AfterAgent, Codex's agent-turn-complete)
	Tool         Kind = "tool"          // a tool call begins (PreToolUse, BeforeTool)
	ToolDone     Kind = "tool_done"     // it ended (PostToolUse, AfterTool)
	ToolFailed   Kind = "tool_failed"   // it failed (PostToolUseFailure)
	Refused      Kind = "refused"       // the client refused it (PermissionDenied: Claude Code's auto mode)
	Ask          Kind = "ask"           // the agent waits for a person: a permission prompt, a question
	Failure      Kind = "failure"       // the model's service ended the turn (StopFailure); Detail says why
	SessionStart Kind = "session_start" // the client started
	SessionEnd   Kind = "session_end"   // the client ended
	Compact      Kind = "compact"       // the client compacts its context
	Other        Kind = "other"         // anything else: still proof the client is alive
)

// Event is one line of the spool. Nothing in it is the agent's text.
type Event struct {
	Time    time.Time `json:"t"`
	Client  string    `json:"client"`
	Name    string    `json:"event"` // the client's own event name
	Kind    Kind      `json:"kind"`
	Tool    string    `json:"tool,omitempty"`
	Input   string    `json:"input,omitempty"`   // hash of the tool's input (16 hex digits)
	Session string    `json:"session,omitempty"` // the client's session ID
	// Detail is a client-defined word: the notification type, the failure's
	// error type (rate_limit, authentication_failed, ...).
	Detail string `json:"detail,omitempty"`
	// A turn's end says whether the agent's last words were only the idle
	// token (a ghost, judged here: the words are not kept) and where the
	// client's transcript is (a path, for the turn's token usage).
	Ghost      bool   `json:"ghost,omitempty"`
	Transcript string `json:"transcript,omitempty"`
}

// payload is the part of a client's hook input Parse reads. Claude Code and
// Gemini CLI share the common fields; Codex's notify has its own.
type payload struct {
	Event            string          `json:"hook_event_name"`
	Session          string          `json:"session_id"`
	Tool             string          `json:"tool_name"`
	Input            json.RawMessage `json:"tool_input"`
	NotificationType string          `json:"notification_type"`
	Error            json.RawMessage `json:"error"` // StopFailure: a type word; PostToolUseFailure: text (never kept)

	CodexType   string `json:"type"`      // Codex notify: "agent-turn-complete"
	CodexThread string `json:"thread-id"` // Codex notify

	TranscriptPath string  `json:"transcript_path"`
	LastMessage    *string `json:"last_assistant_message"` // Claude Code's Stop, Codex's Stop hook
	PromptResponse *string `json:"prompt_response"`        // Gemini CLI's AfterAgent
	CodexLast      *string `json:"last-assistant-message"` // Codex's notify
}

// ErrNoEvent reports a payload that names no event.
var ErrNoEvent = errors.New("no event name in the hook's input")

// Parse reads one hook input from client at now.
func Parse(client string, data []byte, now time.Time) (Event, error) {
	var p payload
	if err := json.Unmarshal(bytes.TrimSpace(data), &p); err != nil {
		return Event{}, fmt.Errorf("hook input from %s: %w", client, err)
	}
	e := Event{Time: now.UTC(), Client: client, Name: p.Event, Session: word(p.Session, 64)}
	if client == Codex && e.Name == "" {
		e.Name, e.Session = p.CodexType, word(p.CodexThread, 64)
	}
	if e.Name == "" {
		return Event{}, ErrNoEvent
	}
	e.Name = word(e.Name, 40)
	e.Kind = kindOf(client, e.Name)
	if p.Tool != "" {
		e.Tool = AgentToolName(word(p.Tool, 80))
	}
	if e.Kind == Tool {
		e.Input = hashInput(p.Input)
		if isQuestion(e.Tool) {
			e.Kind, e.Detail = Ask, "question"
		}
	}
	if e.Kind == TurnEnd {
		for _, said := range []*string{p.LastMessage, p.PromptResponse, p.CodexLast} {
			if said != nil {
				e.Ghost = isGhost(*said)
			}
		}
		if len(p.TranscriptPath) <= 1024 { // a spool line stays under MaxLine
			e.Transcript = word(p.TranscriptPath, 1024)
		}
	}
	switch e.Name {
	case "Notification":
		e.Detail = word(p.NotificationType, 40)
		if asksPerson(p.NotificationType) {
			e.Kind = Ask
		}
	case "PermissionRequest":
		e.Detail = "permission"
	case "StopFailure":
		var typ string
		if json.Unmarshal(p.Error, &typ) == nil {
			e.Detail = word(typ, 40)
		}
	}
	return e, nil
}

// kindOf maps a client's event name to its Kind.
func kindOf(client, name string) Kind {
	switch name {
	case "UserPromptSubmit", "BeforeAgent", "PreInvocation":
		return TurnStart
	case "Stop", "AfterAgent", "agent-turn-complete":
		return TurnEnd
	case "PreToolUse", "BeforeTool":
		return Tool
	case "PostToolUse", "AfterTool":
		return ToolDone
	case "PostToolUseFailure":
		return ToolFailed
	case "PermissionDenied":
		return Refused
	case "PermissionRequest":
		return Ask
	case "StopFailure":
		return Failure
	case "SessionStart":
		return SessionStart
	case "SessionEnd":
		return SessionEnd
	case "PreCompact", "PreCompress":
		return Compact
	}
	return Other
}

// isGhost reports a reply that is only the idle token: the agent found
// nothing worth doing (transcript.IsGhost; this package stays standard
// library only).
func isGhost(said string) bool {
	s := strings.TrimSpace(said)
	return s == "[IDLE]" || s == "HEARTBEAT_OK"
}

// isQuestion reports a tool whose call is a question to the user.
func isQuestion(tool string) bool { return tool == "AskUserQuestion" }

// asksPerson reports a notification that waits for a person: a permission
// prompt (Claude Code's permission_prompt, Gemini CLI's ToolPermission) or
// a form to fill (elicitation_dialog).
func asksPerson(typ string) bool {
	switch typ {
	case "permission_prompt", "worker_permission_prompt", "elicitation_dialog", "ToolPermission":
		return true
	}
	return false
}

// hashInput is a short hash of a tool's input: equal inputs, equal hashes,
// and nothing of the input itself. The client writes the same call's JSON
// the same way, so the bytes are hashed as they came, compacted.
func hashInput(in json.RawMessage) string {
	if len(in) == 0 {
		return ""
	}
	var buf bytes.Buffer
	if json.Compact(&buf, in) != nil {
		buf.Reset()
		buf.Write(in)
	}
	sum := sha256.Sum256(buf.Bytes())
	return hex.EncodeToString(sum[:8])
}

// word keeps an identifier-like field short and printable: the spool is
// read by the pulse and shown on the page.
func word(s string, max int) string {
	s = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return -1
		}
		return r
	}, s)
	if len(s) > max {
		s = s[:max]
	}
	return s
}
