package setup

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"

	"github.com/pelletier/go-toml/v2"

	adapter "github.com/ai-heart/ai-heart/internal/clients/client"
	"github.com/ai-heart/ai-heart/internal/tools/toolnames"
)

// The changes init makes in the agent's home, outside the workspace: what
// each client needs before it will run mcp-heart's tools unattended, and
// nothing broader (which client needs which: its adapter's Setup). They go
// into the home of whoever runs init (the agent's user, as a rule), or of
// --agent-home.

// allowTools adds to permissions.allow a rule for each of mcp-heart's
// tools, named as m names them: what lets a client (Claude Code) call them,
// and no other tool, where the project's own file cannot carry it until
// the folder is trusted. A rule for the whole server would grant any tool
// of whatever server the agent registers under mcp-heart's name: old,
// those an older init wrote, are dropped.
func allowTools(root *object, m *adapter.MCP, old []string) error {
	perms, err := root.child("permissions")
	if err != nil {
		return err
	}
	allow, err := perms.array("allow")
	if err != nil {
		return fmt.Errorf("permissions: %w", err)
	}
	allow = slices.DeleteFunc(allow, func(v any) bool { s, ok := v.(string); return ok && slices.Contains(old, s) })
	for _, r := range AllowRules(m) {
		if !containsString(allow, r) {
			allow = append(allow, r)
		}
	}
	perms.set("allow", allow)
	return nil
}

// AllowRules are the permission rules that grant mcp-heart's tools, one
// each, named as m names them.
func AllowRules(m *adapter.MCP) []string {
	var out []string
	for _, t := range toolnames.All {
		out = append(out, m.Tool(ServerName, t))
	}
	return out
}

// trustFolder trusts the workspace dir in a client's list of trusted
// folders (Gemini CLI's ~/.gemini/trustedFolders.json: {DIR: VALUE}). An
// entry the user wrote for this folder with another value is theirs to
// change: init stops and says so rather than overrule it.
func trustFolder(root *object, dir string, t adapter.TrustFolder) error {
	if v, ok := root.get(dir); ok {
		if v != t.Value {
			return fmt.Errorf("it says %v for %s, so %s: set it to %q (or remove it) and run init again", v, dir, t.Refused, t.Value)
		}
		return nil
	}
	root.set(dir, t.Value)
	return nil
}

// tomlTrust trusts the workspace dir in a TOML config ([projects."DIR"]
// trust_level = "trusted": Codex's ~/.codex/config.toml); refused says what
// follows from an entry that does not. Like mergeCodexConfig it appends
// text, keeping the user's file as it is, and checks the result reads as
// the old document plus that one key.
func tomlTrust(dir, refused string) func(old []byte, _ *notes) ([]byte, error) {
	return func(old []byte, _ *notes) ([]byte, error) {
		var before map[string]any
		if err := toml.Unmarshal(old, &before); err != nil {
			return nil, fmt.Errorf("not valid TOML (%v): fix or move it, then run init again", err)
		}
		if before == nil {
			before = map[string]any{}
		}
		byHand := fmt.Sprintf("[projects.%q] trust_level = \"trusted\"", dir)
		if p, ok := dig(before, "projects", dir); ok {
			if p["trust_level"] == "trusted" {
				return old, nil
			}
			return nil, fmt.Errorf("it has a [projects] entry for %s that does not trust it, so %s: set %s by hand (or remove the entry) and run init again", dir, refused, byHand)
		}
		// A JSON string is a valid TOML basic string.
		key, err := json.Marshal(dir)
		if err != nil {
			return nil, err
		}
		table := fmt.Sprintf("[projects.%s]\ntrust_level = \"trusted\"\n", key)
		out := appendTable(old, []byte(table))
		var after map[string]any
		want := deepCopy(before).(map[string]any)
		projects, _ := want["projects"].(map[string]any)
		if projects == nil {
			projects = map[string]any{}
			want["projects"] = projects
		}
		projects[dir] = map[string]any{"trust_level": "trusted"}
		if err := toml.Unmarshal(out, &after); err != nil || !reflect.DeepEqual(after, want) {
			return nil, fmt.Errorf("cannot add the trust without changing other settings: add %s by hand", byHand)
		}
		return out, nil
	}
}
