// Package prompt builds the heartbeat prompt: the first line
// "Heartbeat: <ID>", then paragraphs (the wakeup's own text, warnings,
// feedback, recovery instructions), separated by blank lines.
package prompt

import (
	"strings"

	"github.com/ai-heart/ai-heart/internal/termsafe"
)

// Prefix starts the first line of every heartbeat prompt.
const Prefix = "Heartbeat: "

// Build renders the prompt for id with the given paragraphs; empty
// paragraphs are left out and duplicates kept once, in order. Paragraphs
// quote the agent's file names: their control and bidirectional characters
// are written out as escapes (termsafe), so the prompt file, a tmux pane
// and an exec run's argument all read the same, and none acts.
func Build(id string, paragraphs ...string) string {
	var b strings.Builder
	b.WriteString(Prefix + termsafe.Line(id))
	seen := map[string]bool{}
	for _, p := range paragraphs {
		p = termsafe.Text(strings.TrimSpace(p))
		if p == "" || seen[p] {
			continue
		}
		seen[p] = true
		b.WriteString("\n\n" + p)
	}
	return b.String()
}

// Parse splits a prompt back into its ID and paragraphs; ok is false when the
// first line is not a heartbeat line.
func Parse(text string) (id string, paragraphs []string, ok bool) {
	text = strings.ReplaceAll(text, "\r\n", "\n")
	first, rest, _ := strings.Cut(text, "\n")
	if !strings.HasPrefix(first, Prefix) {
		return "", nil, false
	}
	for _, p := range strings.Split(rest, "\n\n") {
		if p = strings.TrimSpace(p); p != "" {
			paragraphs = append(paragraphs, p)
		}
	}
	return strings.TrimSpace(strings.TrimPrefix(first, Prefix)), paragraphs, true
}
