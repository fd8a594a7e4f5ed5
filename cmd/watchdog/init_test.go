package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestRunInitUsage(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		want int
	}{
		{"no DIR", nil, 2},
		{"two DIRs", []string{"a", "b"}, 2},
		{"unknown flag", []string{"--nope", "x"}, 2},
		{"flag without value", []string{"x", "--mcp-heart"}, 2},
		{"help", []string{"-h"}, 0},
		{"DIR is a file", []string{file}, 2},
		{"unknown language", []string{"--lang", "fr", "x"}, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			if got := runInit(context.Background(), tt.args, &out, &errb); got != tt.want {
				t.Errorf("runInit(%q) = %d, want %d; stderr:\n%s", tt.args, got, tt.want, errb.String())
			}
		})
	}
}

func TestRunInit(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "ai-works")
	bin := filepath.Join(t.TempDir(), "mcp-heart")
	if err := os.WriteFile(bin, []byte("#!/bin/false\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if code := runInit(context.Background(), []string{dir, "--mcp-heart", bin}, &out, &errb); code != 0 {
		t.Fatalf("runInit() = %d; stderr:\n%s", code, errb.String())
	}
	for _, want := range []string{"created  GEMINI.md", "created  .gemini/settings.json", "TRUST_FOLDER", "claude_desktop_config.json", "mcp-heart: " + bin} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	if errb.Len() != 0 {
		t.Errorf("unexpected stderr: %s", errb.String())
	}

	out.Reset()
	if code := runInit(context.Background(), []string{dir}, &out, &errb); code != 0 {
		t.Fatalf("second runInit() = %d; stderr:\n%s", code, errb.String())
	}
	if strings.Contains(out.String(), "created ") || !strings.Contains(out.String(), "kept     GEMINI.md") {
		t.Errorf("second run should only keep files:\n%s", out.String())
	}
	if !strings.Contains(out.String(), "note: .gemini/settings.json was kept") {
		t.Errorf("second run should point at the kept settings file:\n%s", out.String())
	}
}

func TestRunInitJapanese(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "ai-works")
	var out, errb bytes.Buffer
	if code := runInit(context.Background(), []string{"--lang", "ja", dir, "--mcp-heart", os.Args[0]}, &out, &errb); code != 0 {
		t.Fatalf("runInit(--lang ja) = %d; stderr:\n%s", code, errb.String())
	}
	b, err := os.ReadFile(filepath.Join(dir, "ai-docs", "deep-work.md"))
	if err != nil || !strings.Contains(string(b), "深い作業") {
		t.Errorf("ai-docs/deep-work.md is not the Japanese one (err %v)", err)
	}
	if !strings.Contains(out.String(), "language: ja") {
		t.Errorf("the next steps do not set language: ja:\n%s", out.String())
	}
}

// buildWatchdog builds this command into a temp folder with a stand-in
// mcp-heart next to it, as an install would lay them out.
func buildWatchdog(t *testing.T) (watchdog, mcpHeart string) {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the binary")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go tool on PATH")
	}
	dir := t.TempDir()
	watchdog = filepath.Join(dir, "watchdog")
	cmd := exec.Command(goBin, "build", "-o", watchdog, ".")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	mcpHeart = filepath.Join(dir, "mcp-heart")
	if err := os.WriteFile(mcpHeart, []byte("#!/bin/false\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return watchdog, mcpHeart
}

func TestBinaryInitAndMigrate(t *testing.T) {
	watchdog, mcpHeart := buildWatchdog(t)
	dir := filepath.Join(t.TempDir(), "ai-works")
	run := func(args ...string) (string, int) {
		t.Helper()
		cmd := exec.Command(watchdog, args...)
		cmd.Env = append(os.Environ(), "PATH=") // mcp-heart must be found next to watchdog
		out, err := cmd.CombinedOutput()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatalf("run %v: %v", args, err)
		}
		return string(out), code
	}

	out, code := run("init", dir)
	if code != 0 {
		t.Fatalf("watchdog init = %d:\n%s", code, out)
	}
	b, err := os.ReadFile(filepath.Join(dir, ".gemini", "settings.json"))
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		MCPServers map[string]struct {
			Command string   `json:"command"`
			Args    []string `json:"args"`
			Trust   bool     `json:"trust"`
		} `json:"mcpServers"`
	}
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatalf("settings.json: %v\n%s", err, b)
	}
	if srv := s.MCPServers["mcp-heart"]; srv.Command != mcpHeart || len(srv.Args) != 2 || srv.Args[1] != dir || !srv.Trust {
		t.Errorf("settings.json registers %+v, want %s --workspace %s with trust", srv, mcpHeart, dir)
	}
	if out, code := run("init", dir); code != 0 || !strings.Contains(out, "kept") {
		t.Errorf("second watchdog init = %d:\n%s", code, out)
	}

	legacy := migrateFixture(t)
	if out, code := run("migrate", legacy); code != 0 || !strings.Contains(out, "converted") {
		t.Errorf("watchdog migrate = %d:\n%s", code, out)
	}
	if out, code := run("migrate", legacy); code != 0 || !strings.Contains(out, "nothing to migrate") {
		t.Errorf("second watchdog migrate = %d:\n%s", code, out)
	}
	if out, code := run("migrate"); code != 2 {
		t.Errorf("watchdog migrate without DIR = %d, want 2:\n%s", code, out)
	}
}
