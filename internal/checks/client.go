package checks

import (
	"fmt"

	"github.com/ai-heart/ai-heart/internal/hook"
	"github.com/ai-heart/ai-heart/internal/humanize"
)

// The checks that only the clients' hooks make possible (Config.Client):
// an agent alive but going round in circles, and one waiting for a person.

// toolLoop fires when the same tool call (same tool, same input) came
// Thresholds.ToolLoop times in a row, or two calls alternated as often: a
// warning, and at twice that an error with recovery. The agent is alive
// (each call proves it) but not getting anywhere.
func (e *eval) toolLoop() Finding {
	f := Finding{Check: ToolLoop}
	c := e.cfg.Client
	n := e.cfg.Thresholds.ToolLoop
	if !c.Wired {
		f.Message = "no hook event yet: tool calls not seen"
		return f
	}
	if c.Repeats < n {
		f.Message = fmt.Sprintf("no call repeated %d times (warning at %d)", n, n)
		if c.Repeats > 1 {
			f.Message = fmt.Sprintf("%s repeated %d times (warning at %d)", c.LoopTools, c.Repeats, n)
		}
		return f
	}
	f.Level = Warning
	if c.Repeats >= 2*n {
		f.Level = Error
	}
	f.Message = fmt.Sprintf("the same %s call %d times in a row (warning at %d, error at %d)", c.LoopTools, c.Repeats, n, 2*n)
	f.Fact = e.notice("the same %s call %d times in a row (tool_loop; warning at %d, error at %d)", c.LoopTools, c.Repeats, n, 2*n)
	f.Notice = e.notice("You have made the same %s call %d times in a row. Repeating it will not change its result: "+
		"read the last result again and try a different approach, or write a checkpoint saying what blocks you and move to another activity.", c.LoopTools, c.Repeats)
	return f
}

// waitingForYou fires while the agent waits for a person: a permission
// prompt or a question. It is the one alert that needs the operator, so it
// is a warning (notify hears of it); inactivity does not fire meanwhile.
// The agent cannot act on it, so it gets no notice.
func (e *eval) waitingForYou() Finding {
	f := Finding{Check: WaitingForYou}
	c := e.cfg.Client
	if !c.Asking {
		f.Message = "no hook event yet: questions not seen"
		if c.Wired {
			f.Message = "not waiting for you"
		}
		return f
	}
	f.Level = Warning
	el, _ := e.since(c.AskSince)
	f.Elapsed = el
	f.Message = fmt.Sprintf("waiting for you since %s: %s; answer in the agent's terminal", e.clock(c.AskSince), askWhat(c)) // no age: the line is kept, and an age would freeze
	return f
}

// askWhat says what the agent asks, in words.
func askWhat(c hook.Activity) string {
	switch c.AskWhat {
	case "question":
		return "a question to you"
	case "permission", "permission_prompt", "worker_permission_prompt", "ToolPermission":
		if c.LastTool != "" {
			return "permission to use " + c.LastTool
		}
		return "a permission prompt"
	case "elicitation_dialog":
		return "a form to fill in"
	}
	return "a prompt (" + c.AskWhat + ")"
}

// busy says what the hooks show of a turn full of tool calls, for the
// inactivity message: "busy: 14 tool calls in 5m, last Bash 20s ago".
func (e *eval) busy() string {
	c := e.cfg.Client
	ago, _ := e.since(c.LastToolAt)
	return fmt.Sprintf("busy: %s in %s, last %s %s ago", toolCalls(c.Busy(e.now)), humanize.Duration(hook.BusyWindow), c.LastTool, humanize.Duration(ago))
}

// toolCalls is "1 tool call", "14 tool calls".
func toolCalls(n int) string {
	if n == 1 {
		return "1 tool call"
	}
	return fmt.Sprintf("%d tool calls", n)
}
