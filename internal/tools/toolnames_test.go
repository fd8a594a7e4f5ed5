package tools

import (
	"slices"
	"testing"

	"github.com/ai-heart/ai-heart/internal/tools/toolnames"
)

// toolnames.All is what heart-hook and init know mcp-heart's tools by: it
// must be exactly the tools mcp-heart serves, in order.
func TestToolNamesListIsTheRegistry(t *testing.T) {
	var served []string
	for _, d := range registry {
		served = append(served, d.name)
	}
	if !slices.Equal(served, toolnames.All) {
		t.Fatalf("mcp-heart serves %v, toolnames.All lists %v: add the tool's name to toolnames", served, toolnames.All)
	}
}
