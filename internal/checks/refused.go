package checks

import (
	"fmt"
	"strings"
	"time"
)

// Refusals is what the agent's client refused in its last run or turn: an
// exec run read as stream-json (Claude Code's permission_denials, Gemini
// CLI's tool_result errors), or the hooks (Claude Code's PermissionDenied).
type Refusals struct {
	// Seen: a source that shows refusals has spoken; the zero value is an
	// agent whose refusals nobody can see.
	Seen bool
	// At is when that run ended, or the newest refusal.
	At time.Time
	// Tools names the refused tools, distinct; Refused counts the refused
	// calls and Calls every call of the run (0: not known).
	Tools   []string
	Refused int
	Calls   int
}

// all reports a run in which every call was refused: it did nothing.
func (r Refusals) all() bool { return r.Calls > 0 && r.Refused >= r.Calls }

// toolRefused fires when the client refused tool calls in the agent's last
// run (or turn): a warning naming the tools, an error when it refused every
// call, for the run then did nothing. The agent is not stuck, its client
// is configured against it: the operator allows the tools, or the agent
// does without them; no recovery.
func (e *eval) toolRefused() Finding {
	f := Finding{Check: ToolRefused}
	r := e.cfg.Refusals
	switch {
	case !r.Seen:
		f.Message = "refused calls not seen: exec with output: stream-json, or Claude Code's hooks, show them"
		return f
	case r.Refused == 0:
		f.Message = "no tool call refused in the last run"
		return f
	}
	tools := strings.Join(r.Tools, ", ")
	if tools == "" {
		tools = "a tool"
	}
	at := e.clock(r.At)
	f.Level = Warning
	calls := "tool calls"
	if r.Refused == 1 {
		calls = "tool call"
	}
	f.Message = fmt.Sprintf("the client refused %d %s in the run at %s: %s; allow them in its permission settings, or tell the agent not to use them", r.Refused, calls, at, tools)
	if r.Calls > 0 {
		f.Message = fmt.Sprintf("the client refused %d of %d tool calls in the run at %s: %s; allow them in its permission settings, or tell the agent not to use them", r.Refused, r.Calls, at, tools)
	}
	if r.all() {
		f.Level = Error
		f.Message = fmt.Sprintf("the client refused every tool call of the run at %s (%d): %s; the run did nothing: allow them in its permission settings", at, r.Calls, tools)
	}
	list := strings.Join(r.Tools, e.notice(", "))
	if list == "" {
		list = e.notice("a tool")
	}
	f.Notice = e.notice("In your last run your client refused your calls to %s: they are not allowed here. "+
		"Do not retry them: do the work with the tools you are allowed, or write in your activity log what you need them for, so the user can allow them.", list)
	return f
}
