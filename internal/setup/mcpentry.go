package setup

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
)

// setMCPServer registers mcp-heart under root.mcpServers, the shape every
// JSON client shares. The command and args are init's where the entry has
// none or init's own (see ownCommand, ownArgs); what the user set there
// instead is kept, with a note, and so are other keys (an env). extra adds
// client keys; a false the user gave one of them is kept too.
func setMCPServer(root *object, w Wiring, n *notes, extra ...kv) error {
	servers, err := root.child("mcpServers")
	if err != nil {
		return err
	}
	srv, err := servers.child(ServerName)
	if err != nil {
		return fmt.Errorf("mcpServers: %w", err)
	}
	command, args := mcpHeartArgv(w, n, valueOf(srv, "command"), valueOf(srv, "args"))
	srv.set("command", command)
	srv.set("args", args)
	for _, e := range extra {
		if v, ok := srv.get(e.k); ok && v == false && e.v == true {
			n.add("%q: false is kept as you set it: the client asks before each call of mcp-heart's tools "+
				"(and a headless run refuses them); set it to true to let them run", e.k)
			continue
		}
		srv.set(e.k, e.v)
	}
	return nil
}

// valueOf is the value under key, nil when missing.
func valueOf(o *object, key string) any {
	v, _ := o.get(key)
	return v
}

// mcpHeartArgv is the command and args an mcp-heart entry gets: init's,
// unless the entry holds ones the user set (old values decoded as JSON or
// TOML: string and []any), which are kept and named in a note.
func mcpHeartArgv(w Wiring, n *notes, oldCommand, oldArgs any) (any, any) {
	var command, args any = w.MCPHeart, []any{"--workspace", w.Dir}
	if !ownCommand(oldCommand) {
		command = oldCommand
		n.add("mcp-heart's command is %s, not init's %q: kept as you set it (to run init's, set it to %q; while a spent budget "+
			"binds inside a turn, heart-hook lets through only the calls of the mcp-heart init registered, so this one's are refused)", jsonText(oldCommand), w.MCPHeart, w.MCPHeart)
	}
	if !ownArgs(oldArgs) {
		args = oldArgs
		n.add("mcp-heart's args are %s, not init's %s: kept as you set it (the workspace mcp-heart serves is the one --workspace names)",
			jsonText(oldArgs), jsonText([]any{"--workspace", w.Dir}))
	}
	return command, args
}

// ownCommand: a command init may update in place is missing or an
// mcp-heart binary (init's, maybe from an older install or the bare name).
func ownCommand(v any) bool {
	s, ok := v.(string)
	if v == nil {
		return true
	}
	base := strings.TrimSuffix(filepath.Base(s), ".exe")
	return ok && base == ServerName
}

// ownArgs: args init may update in place are missing or exactly
// ["--workspace", DIR] (a workspace that moved).
func ownArgs(v any) bool {
	a, ok := v.([]any)
	if v == nil {
		return true
	}
	if !ok || len(a) != 2 || a[0] != "--workspace" {
		return false
	}
	_, ok = a[1].(string)
	return ok
}

// jsonText is a value as JSON, for a note.
func jsonText(v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return fmt.Sprint(v)
	}
	return strings.TrimSpace(b.String())
}
