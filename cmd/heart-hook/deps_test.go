package main

import (
	"os/exec"
	"strings"
	"testing"
)

// heart-hook starts at every tool call of the agent: linking the net
// package (whose resolver is cgo's) makes it a dynamically linked program,
// some 0.7 ms slower at every start. Its asks socket is a raw one.
func TestHeartHookLinksNoNet(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to list the packages with")
	}
	out, err := exec.Command(goBin, "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	for _, p := range strings.Fields(string(out)) {
		if p == "net" || p == "runtime/cgo" {
			t.Errorf("heart-hook links %s", p)
		}
	}
}
