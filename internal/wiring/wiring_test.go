package wiring

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

const key = "0123456789abcdef0123456789abcdef"

func write(t *testing.T, root, rel, body string) string {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// program is an executable file, as init registers mcp-heart.
func program(t *testing.T) string {
	p := filepath.Join(t.TempDir(), "mcp-heart")
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

func gemini(endpoint, mcpHeart string) string {
	return `{"mcpServers": {"mcp-heart": {"command": "` + mcpHeart + `", "trust": true}},
 "telemetry": {"enabled": true, "otlpEndpoint": "` + endpoint + `", "otlpProtocol": "http", "logPrompts": false}}`
}

func claude(endpoint, status string) string {
	return `{"env": {"OTEL_EXPORTER_OTLP_ENDPOINT": "` + endpoint + `"}, "statusLine": {"type": "command", "command": "` + status + `"}}`
}

func only(t *testing.T, got []Mismatch, file string, words ...string) {
	t.Helper()
	if len(got) != 1 {
		t.Fatalf("%d mismatches, want 1 in %s: %+v", len(got), file, got)
	}
	msg := got[0].Message("/ws")
	for _, w := range append(words, file, "watchdog init", "--client "+got[0].Client) {
		if !strings.Contains(msg, w) {
			t.Fatalf("%q lacks %q", msg, w)
		}
	}
	if strings.Contains(msg, key) {
		t.Fatalf("%q gives the agent's key away", msg)
	}
}

func TestWiredForTheWindowServed(t *testing.T) {
	served := "http://127.0.0.1:9477/otlp/ai-works/" + key
	mh := program(t)
	root := t.TempDir()
	write(t, root, ".gemini/settings.json", gemini(served, mh))
	write(t, root, ".mcp.json", `{"mcpServers": {"mcp-heart": {"command": "`+mh+`"}}}`)
	write(t, root, ".claude/settings.json", claude(served, "/usr/bin/heart-hook --statusline"))
	if got := Check(root, Served{Telemetry: served}); len(got) != 0 {
		t.Fatalf("mismatches %+v, want none", got)
	}
	// A collector of the user's own is theirs to choose.
	write(t, root, ".gemini/settings.json", gemini("https://otel.example.com:4318", mh))
	if got := Check(root, Served{Telemetry: served}); len(got) != 0 {
		t.Fatalf("mismatches %+v for the user's own collector, want none", got)
	}
}

// The field's case: init wired port A, the watchdog serves port B (or no
// window at all).
func TestWiredForAnotherWindow(t *testing.T) {
	mh := program(t)
	root := t.TempDir()
	write(t, root, ".gemini/settings.json", gemini("http://127.0.0.1:9477/otlp/ai-works/"+key, mh))
	only(t, Check(root, Served{Telemetry: "http://127.0.0.1:9555/otlp/ai-works/" + key}), ".gemini/settings.json", "127.0.0.1:9477", "127.0.0.1:9555", "nothing receives it")
	only(t, Check(root, Served{}), ".gemini/settings.json", "127.0.0.1:9477", "serves no window")
	only(t, Check(root, Served{Telemetry: "http://127.0.0.1:9477/otlp/ai-works/ffffffffffffffffffffffffffffffff"}), ".gemini/settings.json", "key that is not this agent's")

	root = t.TempDir()
	write(t, root, ".claude/settings.json", claude("http://127.0.0.1:9477/otlp/ai-works/"+key, "heart-hook --statusline"))
	only(t, Check(root, Served{Telemetry: "http://127.0.0.1:9555/otlp/ai-works/" + key}), ".claude/settings.json", "OTEL_EXPORTER_OTLP_ENDPOINT", "127.0.0.1:9477")
}

func TestMCPHeartAndStatusLine(t *testing.T) {
	root := t.TempDir()
	write(t, root, ".mcp.json", `{"mcpServers": {"mcp-heart": {"command": "/nonexistent/mcp-heart"}}}`)
	only(t, Check(root, Served{}), ".mcp.json", "/nonexistent/mcp-heart", "cannot run")
	write(t, root, ".mcp.json", `{"mcpServers": {"other": {"command": "/bin/true"}}}`)
	only(t, Check(root, Served{}), ".mcp.json", "registers no mcp-heart")
	os.Remove(filepath.Join(root, ".mcp.json"))
	write(t, root, ".claude/settings.json", `{"statusLine": {"type": "command", "command": "my-line"}}`)
	only(t, Check(root, Served{}), ".claude/settings.json", "status line")
	write(t, root, ".codex/config.toml", "[mcp_servers.mcp-heart]\ncommand = \"/nonexistent/mcp-heart\"\n")
	if got := Check(root, Served{Client: "codex"}); len(got) != 1 || !strings.Contains(got[0].What, "/nonexistent/mcp-heart") {
		t.Fatalf("codex: %+v, want mcp-heart's command that cannot run", got)
	}
}

// What the agent can plant in its own workspace: a FIFO, a link to a
// device or out of the workspace, a huge or malformed file. Each is told,
// none hangs the read.
func TestHostileSettingsFiles(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "elsewhere.json")
	os.WriteFile(outside, []byte(gemini("http://127.0.0.1:9477/otlp/a/"+key, "/bin/true")), 0o644)
	for _, tc := range []struct {
		name  string
		plant func(p string) error
		says  string
	}{
		{"fifo", func(p string) error { return syscall.Mkfifo(p, 0o644) }, "cannot be read"},
		{"link to a device", func(p string) error { return os.Symlink("/dev/zero", p) }, "cannot be read"},
		{"link out of the workspace", func(p string) error { return os.Symlink(outside, p) }, "127.0.0.1:9477"},
		{"dangling link", func(p string) error { return os.Symlink("/nonexistent/x", p) }, ""},
		{"huge", func(p string) error {
			return os.WriteFile(p, []byte(`{"a": "`+strings.Repeat("x", 3<<20)+`"}`), 0o644)
		}, "larger than"},
		{"malformed", func(p string) error { return os.WriteFile(p, []byte(`{"telemetry": {`), 0o644) }, "not JSON"},
		{"wrong types", func(p string) error {
			return os.WriteFile(p, []byte(`{"telemetry": {"enabled": "yes", "otlpEndpoint": 7}, "mcpServers": []}`), 0o644)
		}, "MCP servers"},
		{"folder", func(p string) error { return os.Mkdir(p, 0o755) }, "cannot be read"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			p := filepath.Join(root, ".gemini", "settings.json")
			os.MkdirAll(filepath.Dir(p), 0o755)
			if err := tc.plant(p); err != nil {
				t.Fatal(err)
			}
			done := make(chan []Mismatch, 1)
			go func() { done <- Check(root, Served{Client: "gemini"}) }()
			select {
			case got := <-done:
				if tc.says == "" {
					if len(got) != 0 {
						t.Fatalf("%+v, want none", got)
					}
					return
				}
				if len(got) == 0 || !strings.Contains(got[0].Message(root), tc.says) {
					t.Fatalf("%+v, want a mismatch saying %q", got, tc.says)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("Check hangs on the planted file")
			}
		})
	}
}
