package codex

import (
	"regexp"

	"github.com/pelletier/go-toml/v2"

	"github.com/ai-heart/ai-heart/internal/clients/client"
)

// ConfigFile is the project's Codex config: init registers mcp-heart there.
const ConfigFile = ".codex/config.toml"

// notInName is what Codex 0.169 makes "_" in an MCP server's name when it
// names its tools mcp__SERVER__TOOL (mcp-heart is mcp_heart there).
var notInName = regexp.MustCompile(`[^a-zA-Z0-9_]`)

// MCP: Codex 0.169 reads [mcp_servers] from the project's
// .codex/config.toml and the user's (~/.codex, or CODEX_HOME).
func (Adapter) MCP() *client.MCP {
	return &client.MCP{
		Tool: func(server, tool string) string {
			return "mcp__" + notInName.ReplaceAllString(server, "_") + "__" + notInName.ReplaceAllString(tool, "_")
		},
		Files: []client.ServerFile{
			{Path: ConfigFile, Read: tomlServers},
			{Root: client.Home, Path: ConfigFile, Env: "CODEX_HOME", EnvPath: "config.toml", Read: tomlServers},
		},
	}
}

// tomlServers reads a config.toml's [mcp_servers].
func tomlServers(data []byte, _ string) ([]client.Server, error) {
	var root struct {
		Servers map[string]map[string]any `toml:"mcp_servers"`
	}
	if err := toml.Unmarshal(data, &root); err != nil {
		return nil, err
	}
	out := make([]client.Server, 0, len(root.Servers))
	for name, e := range root.Servers {
		out = append(out, client.ServerOf(name, e["command"], e["args"], e["env"], e["cwd"]))
	}
	return out, nil
}
