package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/ai-heart/ai-heart/internal/clients/claudecode"
	"github.com/ai-heart/ai-heart/internal/clients/codex"
)

// TestImpostorByKeyCase: Node reads the exact keys of .mcp.json and Go's
// encoding/json matches them whatever their case, keeping the last. An
// entry that says command twice (COMMAND), or names another transport, or
// a file with a second MCPSERVERS, is not the real mcp-heart: its tools
// are refused while the budget is spent. The plain entry passes.
func TestImpostorByKeyCase(t *testing.T) {
	dir := t.TempDir()
	heart := filepath.Join(dir, "mcp-heart")
	node := filepath.Join(dir, "node")
	for _, p := range []string{heart, node} {
		if err := os.WriteFile(p, []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	q := strconv.Quote
	ws := t.TempDir()
	home := t.TempDir()
	getenv := func(k string) string {
		if k == "HOME" {
			return home
		}
		return ""
	}
	m := claudecode.Adapter{}.MCP()
	check := func(body string) *notHeart {
		t.Helper()
		if err := os.WriteFile(filepath.Join(ws, ".mcp.json"), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return realHeart(m, ws, "mcp__mcp-heart__checkpoint", []string{heart}, getenv)
	}
	if n := check(`{"mcpServers": {"mcp-heart": {"command": ` + q(heart) + `, "args": ["--workspace", "."], "type": "stdio"}}}`); n != nil {
		t.Fatalf("the real mcp-heart refused: %v", n)
	}
	for _, c := range []struct{ name, body, says string }{
		{"COMMAND after command", `{"mcpServers": {"mcp-heart": {"command": ` + q(node) + `, "args": ["x.js"], "COMMAND": ` + q(heart) + `, "ARGS": []}}}`, "COMMAND"},
		{"Command before command", `{"mcpServers": {"mcp-heart": {"Command": ` + q(heart) + `, "command": ` + q(node) + `}}}`, "Command"},
		{"command twice", `{"mcpServers": {"mcp-heart": {"command": ` + q(node) + `, "command": ` + q(heart) + `}}}`, "command"},
		{"a second MCPSERVERS", `{"mcpServers": {"mcp-heart": {"command": ` + q(node) + `}}, "MCPSERVERS": {"mcp-heart": {"command": ` + q(heart) + `}}}`, "MCPSERVERS"},
		{"mcpServers twice", `{"mcpServers": {"mcp-heart": {"command": ` + q(node) + `}}, "mcpServers": {"mcp-heart": {"command": ` + q(heart) + `}}}`, "mcpServers"},
		{"mcp-heart twice", `{"mcpServers": {"mcp-heart": {"command": ` + q(node) + `}, "mcp-heart": {"command": ` + q(heart) + `}}}`, "mcp-heart"},
		{"an http server with a command", `{"mcpServers": {"mcp-heart": {"type": "http", "url": "http://127.0.0.1:9/mcp", "command": ` + q(heart) + `}}}`, "type"},
		{"a url beside the command", `{"mcpServers": {"mcp-heart": {"url": "http://127.0.0.1:9/mcp", "command": ` + q(heart) + `}}}`, "url"},
		{"TYPE http", `{"mcpServers": {"mcp-heart": {"command": ` + q(heart) + `, "TYPE": "http"}}}`, "TYPE"},
		{"ENV beside env", `{"mcpServers": {"mcp-heart": {"command": ` + q(heart) + `, "env": {}, "ENV": {"LD_PRELOAD": "/x.so"}}}}`, "ENV"},
	} {
		n := check(c.body)
		if n == nil {
			t.Errorf("%s: passes as the real mcp-heart", c.name)
			continue
		}
		if !strings.Contains(n.Error(), c.says) {
			t.Errorf("%s: %q does not say %q", c.name, n.Error(), c.says)
		}
	}
}

// TestImpostorByKeyCaseTOML: Codex reads [mcp_servers] by its exact key;
// go-toml matched a struct field in any case.
func TestImpostorByKeyCaseTOML(t *testing.T) {
	dir := t.TempDir()
	heart := filepath.Join(dir, "mcp-heart")
	node := filepath.Join(dir, "node")
	for _, p := range []string{heart, node} {
		os.WriteFile(p, []byte("#!/bin/sh\n"), 0o755)
	}
	ws, home := t.TempDir(), t.TempDir()
	os.MkdirAll(filepath.Join(ws, ".codex"), 0o755)
	getenv := func(k string) string {
		if k == "HOME" {
			return home
		}
		return ""
	}
	m := codex.Adapter{}.MCP()
	for _, c := range []struct {
		body string
		ok   bool
	}{
		{"[mcp_servers.mcp-heart]\ncommand = " + strconv.Quote(heart) + "\n", true},
		{"[mcp_servers.mcp-heart]\ncommand = " + strconv.Quote(node) + "\n[MCP_SERVERS.mcp-heart]\ncommand = " + strconv.Quote(heart) + "\n", false},
		{"[mcp_servers.mcp-heart]\ncommand = " + strconv.Quote(heart) + "\nurl = \"http://127.0.0.1:9/mcp\"\n", false},
	} {
		os.WriteFile(filepath.Join(ws, ".codex", "config.toml"), []byte(c.body), 0o644)
		n := realHeart(m, ws, "mcp__mcp_heart__checkpoint", []string{heart}, getenv)
		if (n == nil) != c.ok {
			t.Errorf("%s: real mcp-heart %v, want %v (%v)", c.body, n == nil, c.ok, n)
		}
	}
}

// TestRegisteredHeartTrusted: --mcp-heart, on a command line the agent can
// write, names the real mcp-heart only where the agent cannot put another
// program: a file it cannot write in a folder it cannot write (a system
// install), or the very file next to heart-hook.
func TestRegisteredHeartTrusted(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "mcp-heart")
	os.WriteFile(p, []byte("x"), 0o755)
	for _, c := range []struct {
		writable map[string]bool
		want     bool
	}{
		{map[string]bool{p: true, dir: true}, false},
		{map[string]bool{p: false, dir: true}, false},
		{map[string]bool{p: true, dir: false}, false},
		{map[string]bool{p: false, dir: false}, true},
	} {
		if got := lockedDown(p, func(q string) bool { return c.writable[q] }); got != c.want {
			t.Errorf("writable %v: locked down %v, want %v", c.writable, got, c.want)
		}
	}
	if lockedDown(filepath.Join(dir, "none"), func(string) bool { return false }) {
		t.Error("a file that is not there is locked down")
	}
}
