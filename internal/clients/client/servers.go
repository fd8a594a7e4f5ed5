package client

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
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
// ("" for the client's own). Doubt, when not "", says why the entry cannot
// be known to run what its fields say (a key given twice, in two cases, or
// another transport): such an entry is not mcp-heart.
type Server struct {
	Name    string
	Command string
	Args    []string
	Env     map[string]string
	Cwd     string
	Doubt   string
}

// JSONServers reads the mcpServers object of a JSON file.
func JSONServers(data []byte, _ string) ([]Server, error) {
	root, err := Members(data)
	if err != nil {
		return nil, err
	}
	return ServersIn(root)
}

// ServersIn reads the mcpServers member of the object obj (none when it
// has none). The client reads its keys exactly (JavaScript's JSON.parse)
// and encoding/json would match them in any case, keeping the last: a key
// the client reads given in another case beside it, or twice, makes the
// file unreadable here.
func ServersIn(obj map[string]json.RawMessage) ([]Server, error) {
	if k := Folded(obj, "mcpServers"); k != "" {
		return nil, fmt.Errorf("%q beside mcpServers", k)
	}
	raw, ok := obj["mcpServers"]
	if !ok || string(raw) == "null" {
		return nil, nil
	}
	entries, err := Members(raw)
	if err != nil {
		return nil, fmt.Errorf("mcpServers: %w", err)
	}
	out := make([]Server, 0, len(entries))
	for name, raw := range entries {
		e, err := Members(raw)
		if err != nil {
			out = append(out, Server{Name: name, Doubt: err.Error()})
			continue
		}
		fields := map[string]any{}
		for k, v := range e {
			var x any
			json.Unmarshal(v, &x) // Members has checked it is JSON
			fields[k] = x
		}
		out = append(out, ServerFrom(name, fields))
	}
	return out, nil
}

// serverKeys are the keys of a server entry that decide what it runs or
// reaches, in Claude Code's, Gemini CLI's and Codex's files.
var serverKeys = []string{"command", "args", "env", "cwd", "type", "transport", "url", "httpUrl", "tcp"}

// ServerFrom is the server of one entry (JSON's or TOML's), its keys read
// exactly: one that reaches its server by URL, names a transport other
// than stdio, or has one of serverKeys in another case is in Doubt.
func ServerFrom(name string, e map[string]any) Server {
	s := ServerOf(name, e["command"], e["args"], e["env"], e["cwd"])
	for _, k := range serverKeys {
		if f := Folded(e, k); f != "" {
			s.Doubt = fmt.Sprintf("%s beside %s", f, k)
			return s
		}
	}
	for _, k := range []string{"type", "transport"} {
		if v, ok := e[k]; ok && v != "stdio" {
			s.Doubt = fmt.Sprintf("%s = %v", k, v)
			return s
		}
	}
	for _, k := range []string{"url", "httpUrl", "tcp"} {
		if v, ok := e[k]; ok {
			s.Doubt = fmt.Sprintf("%s = %v", k, v)
			return s
		}
	}
	return s
}

// Folded is a key of m other than key that equals it in another case
// ("COMMAND" for "command"), or "".
func Folded[V any](m map[string]V, key string) string {
	for k := range m {
		if k != key && strings.EqualFold(k, key) {
			return k
		}
	}
	return ""
}

// Members decodes a JSON object one member at a time: a key given twice is
// an error, as decoders differ on which of the two they keep.
func Members(data []byte) (map[string]json.RawMessage, error) {
	d := json.NewDecoder(bytes.NewReader(data))
	if t, err := d.Token(); err != nil {
		return nil, err
	} else if t != json.Delim('{') {
		return nil, errors.New("not an object")
	}
	out := map[string]json.RawMessage{}
	for d.More() {
		t, err := d.Token()
		if err != nil {
			return nil, err
		}
		k, _ := t.(string)
		var v json.RawMessage
		if err := d.Decode(&v); err != nil {
			return nil, err
		}
		if _, dup := out[k]; dup {
			return nil, fmt.Errorf("%q given twice", k)
		}
		out[k] = v
	}
	if _, err := d.Token(); err != nil {
		return nil, err
	}
	if _, err := d.Token(); err != io.EOF {
		return nil, errors.New("data after the object")
	}
	return out, nil
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
