package claudecode

import "github.com/ai-heart/ai-heart/internal/clients/client"

// Setup: Claude Code 2.1 reads project MCP servers from .mcp.json and hooks
// from .claude/settings.json (timeout in seconds), and its instructions
// from CLAUDE.md. Headless `claude -p` uses both as they are, but asks
// permission for each mcp-heart tool: the user-level allow rules grant
// them, one by one (a rule for the whole server, mcp__mcp-heart, would
// grant any tool of whatever server the agent registers under that name).
// Interactively a server in .mcp.json waits for approval, and 2.1.197
// honours enabledMcpjsonServers in the project's .claude/settings.json once
// the folder is trusted (checked with `claude mcp list`: "Pending approval"
// without it or without the trust, "Connected" with both). The matcher is
// "*" for the events that match a tool name; the others match everything
// without one.
//
// The allow rule goes in the user's ~/.claude/settings.json: Claude Code
// 2.1 ignores a project's permissions.allow until the folder is trusted
// ("Ignoring 1 permissions.allow entry from .claude/settings.json: this
// workspace has not been trusted"), and headless `claude -p` never shows
// the trust dialog, so the project's file cannot carry it.
//
// The statusLine is heart-hook's: Claude Code hands its status line the
// subscription's rate limits (statusline.go), and nothing else does.
func (Adapter) Setup() client.Setup {
	return client.Setup{Files: []client.File{
		{Path: "CLAUDE.md", Edits: []client.Edit{client.Instructions{}}},
		{Path: MCPFile, Edits: []client.Edit{client.MCPServer{}}},
		{Path: ".claude/settings.json", Edits: []client.Edit{
			client.EnableServer{Key: "enabledMcpjsonServers"},
			telemetry,
			client.HookGroups{Events: []client.HookEvent{
				{Name: "SessionStart"}, {Name: "UserPromptSubmit"},
				{Name: "PreToolUse", Matcher: "*"}, {Name: "PostToolUse", Matcher: "*"}, {Name: "PostToolUseFailure", Matcher: "*"},
				{Name: "Stop"}, {Name: "StopFailure"}, {Name: "PermissionRequest", Matcher: "*", Timeout: holdTimeout}, {Name: "PermissionDenied", Matcher: "*"},
				{Name: "Notification"}, {Name: "PreCompact"}, {Name: "SessionEnd"},
			}},
			client.StatusLine{},
		}},
		// Since 2.1.3xx Claude Code takes its telemetry switches and
		// endpoint (OTEL_*, CLAUDE_CODE_ENABLE_TELEMETRY) from the user's
		// settings only, never a project's (a repository could send the
		// telemetry elsewhere): the home gets them too; 2.1.197 reads the
		// project's, the same values.
		{Root: client.Home, Path: ".claude/settings.json", Edits: []client.Edit{
			client.AllowTools{Old: []string{"mcp__" + client.ServerName}},
			telemetry,
		}},
	}, Next: next, Tmux: "claude"}
}

// holdTimeout is the PermissionRequest hook's timeout, in seconds: with
// --asks it holds while a person may answer from afar (the watchdog's
// asks.hold, at most a day). 2.1.197 runs it beside its dialog, so the
// person at the terminal is never kept waiting by it.
const holdTimeout = 24 * 60 * 60

// telemetry is what turns Claude Code 2.1's OpenTelemetry on, through the
// env of the project's .claude/settings.json (confirmed against the
// installed client, docs/telemetry.md). Prompts stay out:
// OTEL_LOG_USER_PROMPTS unset, Claude Code sends "<REDACTED>".
var telemetry = client.Telemetry{Shape: client.EnvVars, Block: "env",
	Settings: []client.Setting{
		{Key: "CLAUDE_CODE_ENABLE_TELEMETRY", Value: "1"},
		{Key: "OTEL_LOGS_EXPORTER", Value: "otlp"},
		{Key: "OTEL_METRICS_EXPORTER", Value: "otlp"},
		{Key: "OTEL_EXPORTER_OTLP_PROTOCOL", Value: "http/protobuf"},
		{Key: "OTEL_EXPORTER_OTLP_ENDPOINT", Value: client.URL},
	},
	Prompts: "OTEL_LOG_USER_PROMPTS", PromptsOff: []any{"0", ""},
}

// next is init's next step for Claude Code.
const next = "Claude Code: init allowed mcp-heart's tools by name, and nothing else (the rules\n" +
	"{allow_rules}), in {home:.claude/settings.json}: `claude -p` runs them with no prompt.\n" +
	"(Claude Code ignores such rules in the project's own settings until the folder is trusted.)\n" +
	"Interactive Claude Code: start `claude` in {dir} once and accept the trust dialog;\n" +
	"then `claude mcp list` shows mcp-heart Connected. CLAUDE.md leads it to GEMINI.md."
