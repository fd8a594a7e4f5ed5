package hook

import (
	"strings"

	"github.com/ai-heart/ai-heart/internal/tools/toolnames"
)

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
// mcp_mcp-heart_get_heartbeat_elapsed_time), any other tool as it is. Only
// mcp-heart's own tool names (toolnames) lose the prefix: a tool "run" of
// some server registered as mcp-heart stays mcp__mcp-heart__run. It is the
// one place the prefixes are known. Whether the server that answers a call
// so named is the real mcp-heart is heart-hook's to judge.
func AgentToolName(name string) string {
	for _, p := range clientPrefixes {
		if rest, ok := strings.CutPrefix(name, p); ok && toolnames.Is(rest) {
			return rest
		}
	}
	return name
}

// statusTools are mcp-heart's read-only status tools: their result changes
// with time, so calling one again is no loop, and it does not break one.
var statusTools = map[string]bool{
	toolnames.GetHeartbeatElapsedTime: true,
	toolnames.CheckThemeStatus:        true,
}

// StatusTool reports whether tool (as the agent knows it) only reads a
// status that changes with time.
func StatusTool(tool string) bool { return statusTools[tool] }
