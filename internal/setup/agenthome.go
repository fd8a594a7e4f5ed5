package setup

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"

	"github.com/pelletier/go-toml/v2"
)

// The files init writes in the agent's home, outside the workspace: what
// each client needs before it will run mcp-heart's tools unattended, and
// nothing broader. They go into the home of whoever runs init (the agent's
// user, as a rule), or of --agent-home.

// claudeAllowRule is the permission rule that lets Claude Code call every
// tool of the server named mcp-heart, and no other tool.
const claudeAllowRule = "mcp__" + ServerName

// claudeUserPermission adds claudeAllowRule to permissions.allow in the
// user's ~/.claude/settings.json. Claude Code 2.1 ignores a project's
// permissions.allow until the folder is trusted ("Ignoring 1
// permissions.allow entry from .claude/settings.json: this workspace has
// not been trusted"), and headless `claude -p` never shows the trust
// dialog, so the project's file cannot carry it: the user's file can.
func claudeUserPermission(home string) edit {
	return jsonEdit(filepath.Join(home, ".claude", "settings.json"), func(root *object, _ *notes) error {
		perms, err := root.child("permissions")
		if err != nil {
			return err
		}
		allow, err := perms.array("allow")
		if err != nil {
			return fmt.Errorf("permissions: %w", err)
		}
		if !containsString(allow, claudeAllowRule) {
			perms.set("allow", append(allow, claudeAllowRule))
		}
		return nil
	})
}

// geminiTrust trusts the workspace in the user's
// ~/.gemini/trustedFolders.json: Gemini CLI 0.61 disables every MCP server
// and project hook in an untrusted folder ("Disabled"). An entry the user
// wrote for this folder with another value (DO_NOT_TRUST) is theirs to
// change: init stops and says so rather than overrule it.
func geminiTrust(home, dir string) edit {
	return jsonEdit(filepath.Join(home, ".gemini", "trustedFolders.json"), func(root *object, _ *notes) error {
		const trusted = "TRUST_FOLDER"
		if v, ok := root.get(dir); ok {
			if v != trusted {
				return fmt.Errorf("it says %v for %s, so Gemini CLI would leave mcp-heart disabled: set it to %q (or remove it) and run init again", v, dir, trusted)
			}
			return nil
		}
		root.set(dir, trusted)
		return nil
	})
}

// codexTrust trusts the workspace in the user's ~/.codex/config.toml
// ([projects."DIR"] trust_level = "trusted"): Codex 0.169 ignores a
// project's .codex/ (mcp-heart and the hooks) until then. Like
// mergeCodexConfig it appends text, keeping the user's file as it is, and
// checks the result reads as the old document plus that one key.
func codexTrust(home, dir string) edit {
	return edit{path: filepath.Join(home, ".codex", "config.toml"), merge: func(old []byte, _ *notes) ([]byte, error) {
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
			return nil, fmt.Errorf("it has a [projects] entry for %s that does not trust it, so Codex would ignore .codex/: set %s by hand (or remove the entry) and run init again", dir, byHand)
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
	}}
}
