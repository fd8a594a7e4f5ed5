// Package gemini is the adapter of Gemini CLI (0.61.0, the version its
// payloads and outputs here were taken from): its hooks, its headless runs'
// stream-json, its keys and the files init writes for it.
package gemini

import (
	"github.com/ai-heart/ai-heart/internal/clients/client"
	"github.com/ai-heart/ai-heart/internal/hook"
)

// Name is what --client takes.
const Name = "gemini"

// SettingsFile is the workspace's Gemini CLI settings file.
const SettingsFile = ".gemini/settings.json"

// Adapter is Gemini CLI's.
type Adapter struct{}

var _ client.Adapter = Adapter{}

// Name is "gemini".
func (Adapter) Name() string { return Name }

// Title is "Gemini CLI".
func (Adapter) Title() string { return "Gemini CLI" }

// Hooks is its hooks' dialect.
func (Adapter) Hooks() *hook.Dialect { return &Hooks }

// Transcripts: its chats carry no usage the watchdog reads.
func (Adapter) Transcripts() client.Transcripts { return nil }

// Failures: it names no failed request in a word of its own.
func (Adapter) Failures() map[string]client.Fate { return nil }

// Keys: the first Escape cancels, the second clears the input, and it keeps
// a chat only when asked ("/chat save NAME").
func (Adapter) Keys() client.Keys { return client.Keys{Escapes: 2, SavesChat: true} }

// Setup: Gemini CLI 0.61 reads .gemini/settings.json in the project (a
// trusted folder). mcpServers.mcp-heart carries "trust": true, because
// headless `gemini -p` refuses a tool call that needs approval. The hooks
// shape, event names and the timeout in milliseconds are those of the
// settings schema in the installed 0.61 bundle (hooks.<Event>: [{matcher,
// hooks: [{name, type, command, timeout}]}]); hooksConfig.enabled defaults
// to true there, so no flag is set. A project hook runs only in a trusted
// folder, and Gemini CLI shows a one-time warning naming it.
//
// The workspace is trusted in the user's ~/.gemini/trustedFolders.json:
// Gemini CLI 0.61 disables every MCP server and project hook in an
// untrusted folder ("Disabled"). An entry the user wrote for this folder
// with another value (DO_NOT_TRUST) is theirs to change: init stops and
// says so rather than overrule it.
func (Adapter) Setup() client.Setup {
	return client.Setup{Files: []client.File{
		{Path: SettingsFile, Edits: []client.Edit{
			client.MCPServer{Trust: true},
			telemetry,
			client.HookGroups{Named: true, Millis: true, Events: []client.HookEvent{
				{Name: "SessionStart"}, {Name: "BeforeAgent"}, {Name: "AfterAgent"},
				{Name: "BeforeTool", Matcher: "*"}, {Name: "AfterTool", Matcher: "*"},
				{Name: "Notification"}, {Name: "PreCompress"}, {Name: "SessionEnd"},
			}},
		}},
		{Root: client.Home, Path: ".gemini/trustedFolders.json", Edits: []client.Edit{
			client.TrustFolder{Value: "TRUST_FOLDER", Refused: "Gemini CLI would leave mcp-heart disabled"},
		}},
	}, Next: next}
}

// telemetry is Gemini CLI 0.61's settings telemetry: on, to the watchdog
// over OTLP/HTTP, no prompts (confirmed against the installed client,
// docs/telemetry.md).
var telemetry = client.Telemetry{Shape: client.SettingsBlock, Block: "telemetry",
	Settings: []client.Setting{
		{Key: "enabled", Value: true},
		{Key: "otlpEndpoint", Value: client.URL},
		{Key: "otlpProtocol", Value: "http"},
		{Key: "logPrompts", Value: false},
	},
}

// next is init's next step for Gemini CLI.
const next = "Gemini CLI: init trusted the folder in {home:.gemini/trustedFolders.json} (Gemini CLI disables\n" +
	"MCP servers and hooks in untrusted folders), and .gemini/settings.json registers\n" +
	"mcp-heart with \"trust\": true, so `gemini -p` runs its tools without asking.\n" +
	"Check: cd {dir} && gemini mcp list   (expect mcp-heart: Connected)"
