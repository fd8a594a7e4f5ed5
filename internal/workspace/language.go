package workspace

import (
	"path/filepath"
	"strings"

	"github.com/ai-heart/ai-heart/internal/lang"
)

// LanguageFile records the language `watchdog init --lang` wrote the
// workspace's GEMINI.md and ai-docs/ in, so that mcp-heart and the
// watchdog speak it too where their configuration does not say
// `language:` (without it a Japanese workspace got English tools whenever
// mcp-heart started before the watchdog, or the config left it out).
const LanguageFile = "stats/language.txt"

// RecordedLanguage is the language recorded in the workspace at root, or
// "" when none is (or the record is unreadable or not a language). The
// file is the agent's to reach, so it is read without blocking and capped.
func RecordedLanguage(root string) lang.Lang {
	b, err := ReadAgentFile(filepath.Join(root, filepath.FromSlash(LanguageFile)), 64)
	if err != nil {
		return ""
	}
	s := strings.TrimSpace(string(b))
	if s == "" {
		return ""
	}
	l, err := lang.Parse(s)
	if err != nil {
		return ""
	}
	return l
}
