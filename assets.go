// Package aiheart carries the files the binaries embed: the agent rules
// (GEMINI.md), the agent docs (ai-docs/) and the workspace template
// (ai-works-template/) that `watchdog init` lays out.
//
// The template keeps its empty folders in git with placeholder files
// (PlaceholderName); they are part of the embedded tree but are never copied
// into a workspace.
package aiheart

import (
	"embed"
	"io/fs"
)

// Paths inside FS.
const (
	// AgentRules is the agent's main rules file, copied to the workspace root.
	AgentRules = "GEMINI.md"
	// DocsDir holds the detailed agent docs, copied to <workspace>/ai-docs.
	DocsDir = "ai-docs"
	// TemplateDir is the workspace skeleton; its contents map to the
	// workspace root.
	TemplateDir = "ai-works-template"
	// SettingsTemplate is the Gemini CLI settings template inside
	// TemplateDir. Its "{{MCP_HEART}}" and "{{WORKSPACE}}" strings are
	// replaced by init.
	SettingsTemplate = TemplateDir + "/.gemini/settings.json"
	// PlaceholderName marks a folder that only exists to be kept by git.
	PlaceholderName = ".gitkeep"
)

// all: keeps the template's dot-files (.gemini/, .gitkeep).
//
//go:embed GEMINI.md ai-docs all:ai-works-template
var files embed.FS

// FS returns the embedded tree: GEMINI.md, ai-docs/*.md and
// ai-works-template/.
func FS() fs.FS { return files }
