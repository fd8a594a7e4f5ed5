package delivery

import (
	"strings"

	"github.com/ai-heart/ai-heart/internal/termsafe"
)

// MaxRefusedTools is how many distinct refused tools a run's Result names;
// more are counted, not named.
const MaxRefusedTools = 8

// maxPending bounds the Gemini CLI calls remembered between their tool_use
// and tool_result: a stream that never answers its calls cannot grow it.
const maxPending = 64

// refusals follows the tool calls a client refused, as its stream-json says
// (its adapter reads which): Claude Code lists them in its result event,
// Gemini CLI answers such a call with a result of its own, matched here to
// the call's beginning. The agent writes what the client prints, so names
// are cut short and few are kept.
type refusals struct {
	tools   []string
	n       int
	pending map[string]string // Gemini CLI: tool_id -> tool_name, until its result
}

// refuse notes a refused call of tool.
func (r *refusals) refuse(tool string) {
	r.n++
	tool = toolName(tool)
	if tool == "" || len(r.tools) >= MaxRefusedTools {
		return
	}
	for _, t := range r.tools {
		if t == tool {
			return
		}
	}
	r.tools = append(r.tools, tool)
}

// begin remembers a Gemini CLI call's name until its result.
func (r *refusals) begin(id, tool string) {
	if id == "" || tool == "" {
		return
	}
	if r.pending == nil {
		r.pending = map[string]string{}
	}
	if len(r.pending) < maxPending {
		r.pending[id] = toolName(tool)
	}
}

// result ends a call begun earlier: a refused one is a refused call of the
// tool its beginning named.
func (r *refusals) result(id string, refused bool) {
	tool, ok := r.pending[id]
	delete(r.pending, id)
	if !refused {
		return
	}
	if !ok {
		tool = "an unnamed tool"
	}
	r.refuse(tool)
}

// toolName keeps a tool's name printable and short: it goes into alert
// lines, the page and notifications.
func toolName(s string) string {
	const max = 80
	if len(s) > 4*max { // no need to escape what will be cut
		s = s[:4*max]
	}
	s = termsafe.Line(s)
	if len(s) > max {
		s = strings.ToValidUTF8(s[:max], "") + "…"
	}
	return s
}
