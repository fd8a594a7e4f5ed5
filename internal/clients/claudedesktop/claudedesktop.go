// Package claudedesktop is the adapter of Claude Desktop: only the file
// init writes for it. It has no project scope, no hooks and no headless
// mode, and does not run in a terminal.
package claudedesktop

import (
	"github.com/ai-heart/ai-heart/internal/clients/client"
	"github.com/ai-heart/ai-heart/internal/hook"
)

// Name is what init's --client takes.
const Name = "claude-desktop"

// Adapter is Claude Desktop's.
type Adapter struct{}

var _ client.Adapter = Adapter{}

// Name is "claude-desktop".
func (Adapter) Name() string { return Name }

// Title is "Claude Desktop".
func (Adapter) Title() string { return "Claude Desktop" }

// Hooks: it has none, so nothing reports its turns.
func (Adapter) Hooks() *hook.Dialect { return nil }

// Exec: none.
func (Adapter) Exec() *client.Exec { return nil }

// Transcripts: none read.
func (Adapter) Transcripts() client.Transcripts { return nil }

// Failures: none known.
func (Adapter) Failures() map[string]client.Fate { return nil }

// Keys: none; it is not in a terminal.
func (Adapter) Keys() client.Keys { return client.Keys{} }

// Setup: mcp-heart goes into the user's claude_desktop_config.json, in
// os.UserConfigDir()/Claude (~/Library/Application Support/Claude on
// macOS, %AppData%\Claude on Windows, $XDG_CONFIG_HOME/Claude on Linux).
func (Adapter) Setup() client.Setup {
	return client.Setup{
		Files: []client.File{{Root: client.UserConfig, Path: "Claude/claude_desktop_config.json", Edits: []client.Edit{client.MCPServer{}}}},
		Note: "Claude Desktop: restart it to load mcp-heart. It has no hooks, so nothing reports its turns;\n" +
			"it does not read GEMINI.md either: put \"Read GEMINI.md in the workspace and follow it\"\n" +
			"in the project instructions.",
	}
}

// Deny: no decision format known; its calls are not refused.
func (Adapter) Deny(string) []byte { return nil }

// HooksOff: no setting of its is known to turn its hooks off.
func (Adapter) HooksOff() []client.HooksOff { return nil }

// MCP: its calls are not refused, so none is told from mcp-heart's.
func (Adapter) MCP() *client.MCP { return nil }

// Decide: it has no hooks.
func (Adapter) Decide(string, bool, string) []byte { return nil }

// Statusline: none.
func (Adapter) Statusline() client.Statusline { return nil }

// Screen: none the watchdog reads.
func (Adapter) Screen() *client.Screen { return nil }

// Telemetry: none the watchdog reads.
func (Adapter) Telemetry() *client.OTLP { return nil }

// Context: its hooks hand a running turn nothing the watchdog uses.
func (Adapter) Context(string) []byte { return nil }
