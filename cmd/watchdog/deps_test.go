package main

import (
	"os/exec"
	"strings"
	"testing"
)

// Every package linked into watchdog is mapped and initialised at every
// start of every command, the daemon's too: a library that only one rare
// command needs costs them all. The demo's scripted agent speaks MCP to
// mcp-heart itself, in a few lines, rather than through an MCP library,
// which links an MCP server and two JSON-schema compilers (one of them
// alone was 1.7 MB of heap and 6 ms at every start).
func TestWatchdogLinksNoMCPLibrary(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to list the packages with")
	}
	out, err := exec.Command(goBin, "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	for _, p := range strings.Fields(string(out)) {
		for _, heavy := range []string{"github.com/mark3labs/mcp-go", "jsonschema"} {
			if strings.Contains(p, heavy) {
				t.Errorf("watchdog links %s", p)
			}
		}
	}
}
