package hook

import (
	"testing"
	"time"
)

// A tool is named as the agent knows it, whatever client's prefix the
// hook event carries, and the read-only status calls neither make a loop
// nor break one: their result changes with time.
func TestToolNamesAndStatusCallsInLoops(t *testing.T) {
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	// The event as Parse makes it of a tool call (the clients' own
	// parsing is tested with their adapters).
	event := func(client, name, tool string, i int) Event {
		return Event{Time: now.Add(time.Duration(i) * time.Second), Client: client, Name: name, Kind: Tool, Tool: AgentToolName(tool), Input: "q1"}
	}
	t.Run("the status tool, ten times, is no loop", func(t *testing.T) {
		var a Activity
		for i := range 10 {
			a.Apply(event("gemini", "BeforeTool", "mcp_mcp-heart_get_heartbeat_elapsed_time", i))
		}
		if a.Repeats > 1 || a.LastTool != "get_heartbeat_elapsed_time" {
			t.Errorf("repeats %d (%s), last tool %q", a.Repeats, a.LoopTools, a.LastTool)
		}
	})
	t.Run("a loop is named as the agent knows the tool", func(t *testing.T) {
		var a Activity
		for i := range 8 {
			a.Apply(event("claude", "PreToolUse", "mcp__mcp-heart__get_latest_activity_log", 2*i))
			a.Apply(event("claude", "PreToolUse", "mcp__mcp-heart__get_heartbeat_elapsed_time", 2*i+1))
		}
		if a.Repeats != 8 || a.LoopTools != "get_latest_activity_log" {
			t.Errorf("repeats %d (%q), want 8 of get_latest_activity_log", a.Repeats, a.LoopTools)
		}
	})
	for in, want := range map[string]string{
		"mcp__mcp-heart__checkpoint": "checkpoint",
		"mcp_mcp-heart_checkpoint":   "checkpoint",
		"mcp__mcp_heart__checkpoint": "checkpoint", // Codex's form
		"Bash":                       "Bash",
		"mcp__other__checkpoint":     "mcp__other__checkpoint",
		"mcp__mcp-heart__":           "mcp__mcp-heart__",
		// Only mcp-heart's own tools lose the prefix: a tool of another
		// server registered under its name is named whole.
		"mcp__mcp-heart__run":             "mcp__mcp-heart__run",
		"mcp_mcp-heart_write_diary_entry": "mcp_mcp-heart_write_diary_entry",
	} {
		if got := AgentToolName(in); got != want {
			t.Errorf("AgentToolName(%q) = %q, want %q", in, got, want)
		}
	}
}
