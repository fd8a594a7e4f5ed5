package codex

import (
	"fmt"
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

// tomlServers reads a config.toml's [mcp_servers], by its exact key as
// Codex does (go-toml would match a struct's field in any case).
func tomlServers(data []byte, _ string) ([]client.Server, error) {
	var root map[string]any
	if err := toml.Unmarshal(data, &root); err != nil {
		return nil, err
	}
	if k := client.Folded(root, "mcp_servers"); k != "" {
		return nil, fmt.Errorf("%q beside mcp_servers", k)
	}
	servers, _ := root["mcp_servers"].(map[string]any)
	out := make([]client.Server, 0, len(servers))
	for name, e := range servers {
		fields, ok := e.(map[string]any)
		if !ok {
			out = append(out, client.Server{Name: name, Doubt: "not a table"})
			continue
		}
		out = append(out, client.ServerFrom(name, fields))
	}
	return out, nil
}
