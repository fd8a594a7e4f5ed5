package setup

import (
	"path/filepath"
)

// SettingsFile is the workspace-relative Gemini CLI settings file.
const SettingsFile = ".gemini/settings.json"

// geminiClient: Gemini CLI 0.61 reads .gemini/settings.json in the project
// (a trusted folder). mcpServers.mcp-heart carries "trust": true, because
// headless `gemini -p` refuses a tool call that needs approval. The hooks
// shape, event names and the timeout in milliseconds are those of the
// settings schema in the installed 0.61 bundle (hooks.<Event>: [{matcher,
// hooks: [{name, type, command, timeout}]}]); hooksConfig.enabled
// defaults to true there, so no flag is set. A project hook runs only in a
// trusted folder, and Gemini CLI shows a one-time warning naming it.
var geminiClient = client{
	name: ClientGemini,
	files: func(w Wiring) []edit {
		return withHome(w, func(home string) edit { return geminiTrust(home, w.Dir) }, jsonEdit(w.in(SettingsFile), func(root *object, n *notes) error {
			if err := setMCPServer(root, w, n, kv{"trust", true}); err != nil {
				return err
			}
			if w.Telemetry != "" {
				if err := setGeminiTelemetry(root, w.Telemetry, n); err != nil {
					return err
				}
			}
			if !w.hooks() {
				return nil
			}
			events := []hookEvent{
				{"SessionStart", ""}, {"BeforeAgent", ""}, {"AfterAgent", ""},
				{"BeforeTool", "*"}, {"AfterTool", "*"},
				{"Notification", ""}, {"PreCompress", ""}, {"SessionEnd", ""},
			}
			return mergeHookGroups(root, events, func(string) *object {
				return objectOf(kv{"name", HeartHookName}, kv{"type", "command"},
					kv{"command", w.hookCommand(ClientGemini)}, kv{"timeout", hookTimeout * 1000})
			})
		}))
	},
}

// claudeCodeClient: Claude Code 2.1 reads project MCP servers from .mcp.json
// and hooks from .claude/settings.json (timeout in seconds), and its
// instructions from CLAUDE.md. Headless `claude -p` uses both as they are,
// but asks permission for each mcp-heart tool: the user-level allow rule
// (agenthome.go) grants it. Interactively a server in .mcp.json waits for
// approval, and 2.1.197 honours enabledMcpjsonServers in the project's
// .claude/settings.json once the folder is trusted (checked with `claude
// mcp list`: "Pending approval" without it or without the trust,
// "Connected" with both). The matcher is "*" for the events that match a
// tool name; the others match everything without one.
var claudeCodeClient = client{
	name: ClientClaudeCode,
	files: func(w Wiring) []edit {
		return withHome(w, claudeUserPermission,
			instructionsLink(w, "CLAUDE.md"),
			jsonEdit(w.in(".mcp.json"), func(root *object, n *notes) error { return setMCPServer(root, w, n) }),
			jsonEdit(w.in(".claude/settings.json"), func(root *object, n *notes) error {
				enabled, err := root.array("enabledMcpjsonServers")
				if err != nil {
					return err
				}
				if !containsString(enabled, ServerName) {
					root.set("enabledMcpjsonServers", append(enabled, ServerName))
				}
				if w.Telemetry != "" {
					if err := setClaudeTelemetry(root, w.Telemetry, n); err != nil {
						return err
					}
				}
				if !w.hooks() {
					return nil
				}
				events := []hookEvent{
					{"SessionStart", ""}, {"UserPromptSubmit", ""},
					{"PreToolUse", "*"}, {"PostToolUse", "*"}, {"PostToolUseFailure", "*"},
					{"Stop", ""}, {"StopFailure", ""}, {"PermissionRequest", "*"}, {"PermissionDenied", "*"},
					{"Notification", ""}, {"PreCompact", ""}, {"SessionEnd", ""},
				}
				return mergeHookGroups(root, events, func(string) *object {
					return objectOf(kv{"type", "command"}, kv{"command", w.hookCommand(ClientClaudeCode)}, kv{"timeout", hookTimeout})
				})
			}),
		)
	},
}

// claudeDesktopClient: Claude Desktop has no project scope and no hooks:
// mcp-heart goes into the user's claude_desktop_config.json, in
// os.UserConfigDir()/Claude (~/Library/Application Support/Claude on macOS,
// %AppData%\Claude on Windows, $XDG_CONFIG_HOME/Claude on Linux).
var claudeDesktopClient = client{
	name: ClientClaudeDesktop,
	files: func(w Wiring) []edit {
		return []edit{jsonEdit(filepath.Join(w.UserConfigDir, "Claude", "claude_desktop_config.json"),
			func(root *object, n *notes) error { return setMCPServer(root, w, n) })}
	},
	note: func(Wiring) string {
		return "Claude Desktop: restart it to load mcp-heart. It has no hooks, so nothing reports its turns;\n" +
			"it does not read GEMINI.md either: put \"Read GEMINI.md in the workspace and follow it\"\n" +
			"in the project instructions."
	},
}

// agyClient: the Antigravity CLI's npm package is not on the registry
// here, so this follows its documented format, not a run of the binary.
// Sources: the Antigravity CLI docs on hooks (hooks.json in a
// customization root such as .agents/: top-level keys are hook names, each
// an object of events; PreToolUse/PostToolUse take [{matcher, hooks:
// [handler]}], PreInvocation, PostInvocation, Stop and SessionStart a flat
// [handler] list; timeout a whole number of seconds), as mirrored at
// gemini.meetcoding.cn/antigravity/hooks.html, and skillsaw's
// antigravity-hooks-valid rule (measured against agy 1.1.25: unknown
// handler keys are dropped, an invalid file loads no hook at all). The
// event decides the entry's shape, so the file has two on purpose: a
// matcher group under a flat event would read as a handler with no
// command and never run. MCP
// servers go in .agents/mcp_config.json under mcpServers, the shape of
// Antigravity's raw MCP config. Only SessionStart, PreInvocation,
// PostInvocation and Stop are said to fire in 1.1.x; the tool events are
// registered too, as documented, in case they do.
var agyClient = client{
	name: ClientAgy,
	files: func(w Wiring) []edit {
		mcp := jsonEdit(w.in(".agents/mcp_config.json"), func(root *object, n *notes) error { return setMCPServer(root, w, n) })
		if !w.hooks() {
			return []edit{mcp}
		}
		return []edit{
			mcp,
			jsonEdit(w.in(".agents/hooks.json"), func(root *object, _ *notes) error {
				named, err := root.child(HeartHookName)
				if err != nil {
					return err
				}
				handler := func() *object {
					return objectOf(kv{"type", "command"}, kv{"command", w.hookCommand(ClientAgy)}, kv{"timeout", hookTimeout})
				}
				// The named hook is init's: its events are set whole; other
				// keys in it (an "enabled": false) are kept.
				for _, ev := range []string{"SessionStart", "PreInvocation", "PostInvocation", "Stop"} {
					named.set(ev, []any{handler()})
				}
				for _, ev := range []string{"PreToolUse", "PostToolUse"} {
					named.set(ev, []any{objectOf(kv{"matcher", "*"}, kv{"hooks", []any{handler()}})})
				}
				return nil
			}),
		}
	},
	note: func(Wiring) string {
		return "Antigravity CLI (agy): .agents/ follows its documented format; agy could not be run here\n" +
			"to confirm it, so check that `agy` lists mcp-heart and the heart-hook hook."
	},
}

// containsString reports whether a JSON array holds the string s.
func containsString(a []any, s string) bool {
	for _, v := range a {
		if v == s {
			return true
		}
	}
	return false
}

// withHome is the edits of a client, then its edit in the agent's home
// when there is one.
func withHome(w Wiring, inHome func(home string) edit, edits ...edit) []edit {
	if w.Home != "" {
		e := inHome(w.Home)
		e.home = w.Home
		edits = append(edits, e)
	}
	return edits
}
