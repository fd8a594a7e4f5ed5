package gemini

import (
	"regexp"
	"strings"

	"github.com/ai-heart/ai-heart/internal/clients/client"
)

// notInName is what Gemini CLI 0.61 makes "_" in a tool's name (its
// generateValidName: replace(/[^a-zA-Z0-9_\-.:]/g, "_")).
var notInName = regexp.MustCompile(`[^a-zA-Z0-9_\-.:]`)

// maxName is the longest tool name Gemini CLI 0.61 keeps whole (64 less
// one); a longer one is cut to its first and last 30 characters around
// "...".
const maxName = 63

// MCP: Gemini CLI 0.61 names an MCP tool mcp_SERVER_TOOL (no "mcp_" added
// to a server whose name already begins so: a server "mcp_mcp-heart" with
// a tool "checkpoint" is mcp_mcp-heart_checkpoint too), and reads servers
// from the project's settings and the user's ~/.gemini/settings.json
// (GEMINI_CLI_HOME moves the home).
func (Adapter) MCP() *client.MCP {
	return &client.MCP{
		Tool: toolName,
		Files: []client.ServerFile{
			{Path: SettingsFile, Read: client.JSONServers},
			{Root: client.Home, Path: SettingsFile, Env: "GEMINI_CLI_HOME", EnvPath: SettingsFile, Read: client.JSONServers},
		},
	}
}

// toolName is Gemini CLI 0.61's generateValidName of SERVER_TOOL.
func toolName(server, tool string) string {
	n := server + "_" + tool
	if !strings.HasPrefix(n, "mcp_") {
		n = "mcp_" + n
	}
	n = notInName.ReplaceAllString(n, "_")
	if c := n[0]; !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
		n = "_" + n
	}
	if len(n) > maxName && tool != "" {
		n = n[:30] + "..." + n[len(n)-30:]
	}
	return n
}
