package client

import (
	"encoding/json"
	"os"
	"path/filepath"
)

// MCP is how a client names the tools of its MCP servers in its hooks, and
// where it reads the servers from. A spent budget lets through only the
// calls of mcp-heart's tools (heart-hook), and the name alone proves
// nothing: the agent can write these files, and register a shell of its
// own under mcp-heart's name. So a call named like one of mcp-heart's
// passes only when every one of these files that registers a server under
// that name registers the real mcp-heart, and none registers another
// server whose tools could bear the same name.
type MCP struct {
	// Tool is the name the client's hooks give tool of server (with the
	// tool "": the prefix every tool of server's name begins with).
	Tool func(server, tool string) string
	// Files are where the client reads the servers it runs from.
	Files []ServerFile
}

// ServerFile is one file a client reads MCP servers from.
type ServerFile struct {
	Root Root   // Workspace, or Home: the home the client's environment names
	Path string // slash-separated, under Root
	// Env names an environment variable that, when set, moves the file to
	// EnvPath under the folder it holds (CLAUDE_CONFIG_DIR, CODEX_HOME,
	// GEMINI_CLI_HOME).
	Env, EnvPath string
	// Read reads the servers the file registers for the workspace ws (a
	// file of the home may hold other workspaces' too).
	Read func(data []byte, ws string) ([]Server, error)
}

// Where is the file's path for the workspace ws, as the client would find
// it with environment getenv: "" when it has no home to be in.
func (f ServerFile) Where(ws string, getenv func(string) string) string {
	if f.Root == Workspace {
		return filepath.Join(ws, filepath.FromSlash(f.Path))
	}
	if f.Env != "" {
		if d := getenv(f.Env); d != "" {
			return filepath.Join(d, filepath.FromSlash(f.EnvPath))
		}
	}
	home := getenv("HOME")
	if home == "" {
		var err error
		if home, err = os.UserHomeDir(); err != nil {
			return ""
		}
	}
	return filepath.Join(home, filepath.FromSlash(f.Path))
}

// Server is one MCP server a file registers: the program it runs (Command
// "" for one reached by URL), with its arguments, environment and folder
// ("" for the client's own).
type Server struct {
	Name    string
	Command string
	Args    []string
	Env     map[string]string
	Cwd     string
}

// jsonServer is a server entry of the JSON files: .mcp.json, Gemini CLI's
// settings, ~/.claude.json. A value of another type leaves its field
// empty: such an entry runs nothing that can be known as mcp-heart.
type jsonServer struct {
	Command any `json:"command"`
	Args    any `json:"args"`
	Env     any `json:"env"`
	Cwd     any `json:"cwd"`
}

// JSONServers reads the mcpServers object of a JSON file.
func JSONServers(data []byte, _ string) ([]Server, error) {
	var root struct {
		Servers map[string]json.RawMessage `json:"mcpServers"`
	}
	if err := json.Unmarshal(data, &root); err != nil {
		return nil, err
	}
	return ServersOf(root.Servers), nil
}

// ServersOf reads an mcpServers object, decoded one entry at a time.
func ServersOf(entries map[string]json.RawMessage) []Server {
	out := make([]Server, 0, len(entries))
	for name, raw := range entries {
		var e jsonServer
		json.Unmarshal(raw, &e) // a garbled entry is a server that runs nothing known
		out = append(out, ServerOf(name, e.Command, e.Args, e.Env, e.Cwd))
	}
	return out
}

// ServerOf is a server from its decoded fields (JSON's or TOML's): a field
// of an unexpected type is left empty.
func ServerOf(name string, command, args, env, cwd any) Server {
	s := Server{Name: name}
	s.Command, _ = command.(string)
	s.Cwd, _ = cwd.(string)
	if a, ok := args.([]any); ok {
		for _, x := range a {
			v, _ := x.(string)
			s.Args = append(s.Args, v)
		}
	}
	if m, ok := env.(map[string]any); ok {
		s.Env = map[string]string{}
		for k, x := range m {
			v, _ := x.(string)
			s.Env[k] = v
		}
	}
	return s
}
