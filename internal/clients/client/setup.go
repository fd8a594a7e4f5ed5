package client

// The words of Setup: what init writes for a client, as data. Package setup
// applies them with its one merge machinery (JSON and TOML merged in place,
// the user's keys kept, links followed as it allows); an adapter only says
// which file gets what.

// ServerName is the MCP server's name in every client's files.
const ServerName = "mcp-heart"

// Setup is the files init writes for a client, in order, and what to tell
// the operator afterwards ("" for nothing).
type Setup struct {
	Files []File
	Note  string
	// Next is the step init's next steps give the client: what init did
	// for it and what the operator still does, in the words of NextSteps.
	// {dir} is the workspace, {home:REL} a path under the agent's home,
	// {allow_rules} the allow rules init gave it (AllowTools).
	Next string
	// Tmux is the command that starts the client in a tmux pane, offered
	// as the interactive way when it is the client woken headless ("":
	// none offered).
	Tmux string
}

// Root is where a client file lies.
type Root int

// Roots.
const (
	Workspace  Root = iota // the agent's workspace
	Home                   // the agent's home: what only the user can grant; skipped without one
	UserConfig             // os.UserConfigDir(): for a client with no project scope
)

// File is one file and its edits, applied in order. A file whose every
// edit is a hooks edit is not written when no hooks are wired.
type File struct {
	Root  Root
	Path  string // slash-separated, under Root
	Edits []Edit
}

// Edit is one change to a file: one of the types below.
type Edit interface{ isEdit() }

// Instructions makes the file a link to the agent's rules (GEMINI.md), so
// every client reads the one copy.
type Instructions struct{}

// MCPServer registers mcp-heart under mcpServers in a JSON file. Trust
// adds "trust": true (a client that asks before each call otherwise).
type MCPServer struct{ Trust bool }

// EnableServer adds mcp-heart to the JSON array under Key.
type EnableServer struct{ Key string }

// HookGroups runs heart-hook on Events, in the hooks shape Claude Code,
// Gemini CLI and Codex share: {"hooks": {"Event": [{"matcher": …, "hooks":
// [handler]}]}}. A handler is {type, command, timeout}: Named puts
// "name": "heart-hook" first, Millis gives the timeout in milliseconds.
type HookGroups struct {
	Events []HookEvent
	Named  bool
	Millis bool
}

// HookEvent is one event heart-hook runs on. Matcher "" adds none;
// Timeout 0 is init's default (seconds).
type HookEvent struct {
	Name, Matcher string
	Timeout       int
}

// NamedHooks is Antigravity's hooks.json: a top-level hook named
// heart-hook whose Flat events take a list of handlers and whose Grouped
// events take [{matcher: "*", hooks: [handler]}].
type NamedHooks struct{ Flat, Grouped []string }

// AllowTools adds to permissions.allow in a JSON file one rule for each of
// mcp-heart's tools, by the name the client gives it (the adapter's MCP):
// they run, and no other tool, whatever server is registered as
// mcp-heart. Old are rules an older init wrote that granted more (every
// tool of the server named mcp-heart): they go.
type AllowTools struct{ Old []string }

// TrustFolder sets the workspace's path to Value in a JSON object. A value
// the user set for it otherwise stops init: Refused says what follows from
// it ("Gemini CLI would leave mcp-heart disabled").
type TrustFolder struct{ Value, Refused string }

// TOMLServer adds [mcp_servers.mcp-heart] to a TOML file, by text.
type TOMLServer struct{}

// TOMLTrust adds [projects."DIR"] trust_level = "trusted" to a TOML file;
// Refused says what follows from an entry that does not trust it.
type TOMLTrust struct{ Refused string }

// Telemetry turns the client's OpenTelemetry on towards the watchdog (when
// init is given its address), in the client's Shape, without prompt text.
// For the JSON shapes, Settings go under the object Block, a user's own
// value kept (with a note); a setting whose Value is URL holds the
// watchdog's address, and one an earlier init wrote there is replaced.
// Prompts names a setting that sends the prompts' text: init never sets
// it, and says so when the user set it to anything but PromptsOff.
type Telemetry struct {
	Shape      TelemetryShape
	Block      string
	Settings   []Setting
	Prompts    string
	PromptsOff []any
}

// Setting is one key init sets, to Value (a JSON value).
type Setting struct {
	Key   string
	Value any
}

// URL stands for the watchdog's OTLP/HTTP base URL in a Setting's Value.
const URL = "{watchdog-otlp-url}"

// TelemetryShape is where a client reads its telemetry settings.
type TelemetryShape int

// The shapes.
const (
	EnvVars       TelemetryShape = iota + 1 // Claude Code: OTEL_* in the settings' env
	SettingsBlock                           // Gemini CLI: the settings' telemetry object
	OtelTable                               // Codex: [otel] in the user's config.toml
)

func (Instructions) isEdit() {}
func (MCPServer) isEdit()    {}
func (EnableServer) isEdit() {}
func (HookGroups) isEdit()   {}
func (NamedHooks) isEdit()   {}
func (AllowTools) isEdit()   {}
func (TrustFolder) isEdit()  {}
func (TOMLServer) isEdit()   {}
func (TOMLTrust) isEdit()    {}
func (Telemetry) isEdit()    {}
func (StatusLine) isEdit()   {}

// StatusLine sets the JSON file's statusLine to heart-hook's status line
// (Claude Code's: it reads the rate limits the client reports). A
// statusLine of the user's own is kept, with a note on how to chain it.
type StatusLine struct{}

// IsHooks reports an edit that wires heart-hook.
func IsHooks(e Edit) bool {
	switch e.(type) {
	case HookGroups, NamedHooks, StatusLine:
		return true
	}
	return false
}
