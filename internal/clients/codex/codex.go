// Package codex is the adapter of Codex CLI (0.169.0, the version its
// payloads and outputs here were taken from): its hooks and notify, its
// `exec --json` output, its keys and the files init writes for it.
package codex

import (
	"github.com/ai-heart/ai-heart/internal/clients/client"
	"github.com/ai-heart/ai-heart/internal/hook"
)

// Name is what --client takes.
const Name = "codex"

// Adapter is Codex's.
type Adapter struct{}

var _ client.Adapter = Adapter{}

// Name is "codex".
func (Adapter) Name() string { return Name }

// Title is "Codex".
func (Adapter) Title() string { return "Codex" }

// Hooks is its hooks' dialect.
func (Adapter) Hooks() *hook.Dialect { return &Hooks }

// Transcripts: its rollouts are not read for usage.
func (Adapter) Transcripts() client.Transcripts { return nil }

// Failures: it names no failed request in a word of its own.
func (Adapter) Failures() map[string]client.Fate { return nil }

// Keys: one Escape stops it (a second opens its history menu), and it keeps
// every session itself.
func (Adapter) Keys() client.Keys { return client.Keys{Escapes: 1} }

// Setup: Codex CLI 0.169 reads the project's .codex/config.toml and
// .codex/hooks.json when the project is trusted (checked with `codex mcp
// list` and `codex doctor` in a throwaway CODEX_HOME). mcp-heart goes in
// config.toml as [mcp_servers.mcp-heart]. The hooks go in hooks.json, in
// the Claude Code shape Codex's hooks documentation uses (timeout in
// seconds, SessionEnd capped at 3 s by Codex); JSON, so that config.toml
// gets one table and nothing else. No `notify`: 0.169 ignores it in a
// project config ("Ignored unsupported project-local config keys …:
// notify", from `codex doctor`), and in the user's config it would fire for
// every project with this workspace's name; the Stop hook reports the same
// turn end.
//
// The workspace is trusted in the user's ~/.codex/config.toml
// ([projects."DIR"] trust_level = "trusted"): Codex 0.169 ignores a
// project's .codex/ (mcp-heart and the hooks) until then.
func (Adapter) Setup() client.Setup {
	return client.Setup{Files: []client.File{
		{Path: "AGENTS.md", Edits: []client.Edit{client.Instructions{}}},
		{Path: ConfigFile, Edits: []client.Edit{client.TOMLServer{}}},
		{Path: ".codex/hooks.json", Edits: []client.Edit{client.HookGroups{Events: []client.HookEvent{
			{Name: "SessionStart"}, {Name: "UserPromptSubmit"}, {Name: "PreToolUse"}, {Name: "PostToolUse"},
			{Name: "PermissionRequest"}, {Name: "PreCompact"}, {Name: "Stop"}, {Name: "SessionEnd", Timeout: 3},
		}}}},
		// Codex 0.169 ignores [otel] in a project's config.toml: its
		// telemetry goes in the user's, beside the project's trust.
		{Root: client.Home, Path: ".codex/config.toml", Edits: []client.Edit{client.TOMLTrust{Refused: "Codex would ignore .codex/"}, client.Telemetry{Shape: client.OtelTable}}},
	}, Next: next}
}

// next is init's next step for Codex.
const next = "Codex: init trusted the folder in {home:.codex/config.toml} (Codex ignores a project's\n" +
	".codex/ until then). AGENTS.md leads it to GEMINI.md. Codex runs new hooks only once\n" +
	"you review them: open `codex` in {dir} once and trust them in /hooks (mcp-heart\n" +
	"works before that; the hooks stay silent)."
