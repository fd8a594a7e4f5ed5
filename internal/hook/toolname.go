package hook

import "strings"

// serverName is mcp-heart's name in the clients' MCP settings (setup
// writes it so): the clients prefix our tools with it.
const serverName = "mcp-heart"

// clientPrefixes are how the clients name an MCP server's tools in their
// hook events: Claude Code mcp__<server>__<tool>, Codex the same with the
// server's "-" made "_" (mcp__mcp_heart__checkpoint, as 0.169 sends it),
// Gemini CLI mcp_<server>_<tool>, and the dotted and slashed forms some
// logs use.
var clientPrefixes = []string{
	"mcp__" + serverName + "__",
	"mcp__" + strings.ReplaceAll(serverName, "-", "_") + "__",
	"mcp_" + serverName + "_",
	serverName + "__",
	serverName + ".",
	serverName + "/",
}

// AgentToolName is a tool's name as the agent knows it: mcp-heart's tools
// without the client's internal prefix (get_heartbeat_elapsed_time, not
// mcp_mcp-heart_get_heartbeat_elapsed_time), any other tool as it is. It
// is the one place the prefixes are known.
func AgentToolName(name string) string {
	for _, p := range clientPrefixes {
		if rest, ok := strings.CutPrefix(name, p); ok && rest != "" {
			return rest
		}
	}
	return name
}

// HeartTool reports whether a tool's name, as the client gives it, is one
// of mcp-heart's (the prefixes above): a spent budget never refuses them,
// so the agent can still write its activity log.
func HeartTool(name string) bool { return AgentToolName(name) != name }

// statusTools are mcp-heart's read-only status tools: their result changes
// with time, so calling one again is no loop, and it does not break one.
var statusTools = map[string]bool{
	"get_heartbeat_elapsed_time": true,
	"check_theme_status":         true,
}

// StatusTool reports whether tool (as the agent knows it) only reads a
// status that changes with time.
func StatusTool(tool string) bool { return statusTools[tool] }
