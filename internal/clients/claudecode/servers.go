package claudecode

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"

	"github.com/ai-heart/ai-heart/internal/clients/client"
)

// MCPFile is the workspace's project MCP servers: init registers mcp-heart
// there.
const MCPFile = ".mcp.json"

// notInName is what Claude Code 2.1.197 makes "_" in a server's or tool's
// name when it names the tool mcp__SERVER__TOOL (its normalizer:
// replace(/[^a-zA-Z0-9_-]/g, "_")).
var notInName = regexp.MustCompile(`[^a-zA-Z0-9_-]`)

// MCP: Claude Code 2.1.197 runs the servers of the project's .mcp.json and
// of ~/.claude.json (its user scope, and its local scope: the entry under
// projects.<folder>), and one name defined in several scopes runs the
// local scope's, then the project's (`claude mcp list` warns of
// "Conflicting scopes"). Every one of them is read: the agent can write
// both files.
func (Adapter) MCP() *client.MCP {
	return &client.MCP{
		Tool: func(server, tool string) string {
			return "mcp__" + notInName.ReplaceAllString(server, "_") + "__" + notInName.ReplaceAllString(tool, "_")
		},
		Files: []client.ServerFile{
			{Path: MCPFile, Read: client.JSONServers},
			{Root: client.Home, Path: ".claude.json", Env: "CLAUDE_CONFIG_DIR", EnvPath: ".claude.json", Read: userServers},
		},
	}
}

// userServers reads ~/.claude.json's servers for the workspace ws: its
// user scope (mcpServers) and the local scope of ws (projects.<ws>).
func userServers(data []byte, ws string) ([]client.Server, error) {
	root, err := client.Members(data)
	if err != nil {
		return nil, err
	}
	out, err := client.ServersIn(root)
	if err != nil {
		return nil, err
	}
	if k := client.Folded(root, "projects"); k != "" {
		return nil, fmt.Errorf("%q beside projects", k)
	}
	raw, ok := root["projects"]
	if !ok || string(raw) == "null" {
		return out, nil
	}
	projects, err := client.Members(raw)
	if err != nil {
		return nil, fmt.Errorf("projects: %w", err)
	}
	for dir, raw := range projects {
		if !sameDir(dir, ws) {
			continue
		}
		p, err := client.Members(raw)
		if err != nil {
			return nil, fmt.Errorf("projects.%s: %w", dir, err)
		}
		s, err := client.ServersIn(p)
		if err != nil {
			return nil, fmt.Errorf("projects.%s: %w", dir, err)
		}
		out = append(out, s...)
	}
	return out, nil
}

// sameDir reports whether two paths name one folder.
func sameDir(a, b string) bool {
	if filepath.Clean(a) == filepath.Clean(b) {
		return true
	}
	fa, err := os.Stat(a)
	if err != nil {
		return false
	}
	fb, err := os.Stat(b)
	return err == nil && os.SameFile(fa, fb)
}
