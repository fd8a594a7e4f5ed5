// Package aiheart carries the files the binaries embed: the agent rules
// (GEMINI.md), the agent docs (ai-docs/), their Japanese versions (ja/) and
// the workspace template (ai-works-template/) that `watchdog init` lays out.
//
// The template keeps its empty folders in git with placeholder files
// (PlaceholderName); they are part of the embedded tree but are never copied
// into a workspace.
package aiheart

import (
	"embed"
	"io/fs"
	"path"

	"github.com/ai-heart/ai-heart/internal/lang"
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
	// PlaceholderName marks a folder that only exists to be kept by git.
	PlaceholderName = ".gitkeep"
	// JaDir holds the Japanese GEMINI.md and ai-docs/, with the same file
	// names as the English ones.
	JaDir = "ja"
)

// DocsRoot is the folder of FS holding GEMINI.md and ai-docs/ in language
// l: "." for English, JaDir for Japanese.
func DocsRoot(l lang.Lang) string {
	if l == lang.Japanese {
		return JaDir
	}
	return "."
}

// Doc is the path in FS of an agent document in language l, given by its
// workspace path (GEMINI.md, ai-docs/tools.md).
func Doc(l lang.Lang, name string) string { return path.Join(DocsRoot(l), name) }

// all: keeps the template's dot-files (.gitkeep).
//
//go:embed GEMINI.md ai-docs ja all:ai-works-template
var files embed.FS

// FS returns the embedded tree: GEMINI.md, ai-docs/*.md, ja/ and
// ai-works-template/.
func FS() fs.FS { return files }
