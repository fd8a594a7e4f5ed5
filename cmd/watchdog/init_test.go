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
		{"unknown client", []string{"--client", "claude", "x"}, 2},
		{"empty client", []string{"--client", "", "x"}, 2},
		{"client without value", []string{"x", "--client"}, 2},
		{"agent home not a folder", []string{"--agent-home", file, filepath.Join(t.TempDir(), "w")}, 1},
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
	hook := filepath.Join(filepath.Dir(bin), "heart-hook")
	if err := os.WriteFile(hook, []byte("#!/bin/true\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if code := runInit(context.Background(), []string{dir, "--mcp-heart", bin, "--heart-hook", hook}, &out, &errb); code != 0 {
		t.Fatalf("runInit() = %d; stderr:\n%s", code, errb.String())
	}
	trusted := filepath.Join(os.Getenv("HOME"), ".gemini", "trustedFolders.json")
	for _, want := range []string{"created  GEMINI.md", "wrote    .gemini/settings.json", "wrote    " + trusted + "\n", "claude_desktop_config.json", "mcp-heart: " + bin, "heart-hook: " + hook} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	if errb.Len() != 0 {
		t.Errorf("unexpected stderr: %s", errb.String())
	}

	out.Reset()
	if code := runInit(context.Background(), []string{dir, "--mcp-heart", bin, "--heart-hook", hook}, &out, &errb); code != 0 {
		t.Fatalf("second runInit() = %d; stderr:\n%s", code, errb.String())
	}
	if strings.Contains(out.String(), "created ") || strings.Contains(out.String(), "wrote ") || !strings.Contains(out.String(), "kept     GEMINI.md") {
		t.Errorf("second run should only keep files:\n%s", out.String())
	}
	if !strings.Contains(out.String(), "kept     .gemini/settings.json (already wired)") {
		t.Errorf("second run should say the settings file is already wired:\n%s", out.String())
	}
}

// TestRunInitClients: --client repeats, wires each named client (and not
// gemini, the default), lists every file it wrote and the client's next
// step, and a bad name lists the good ones.
func TestRunInitClients(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "ai-works")
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(t.TempDir(), "config"))
	var out, errb bytes.Buffer
	home := t.TempDir()
	args := []string{"--client", "claude-code", dir, "--client", "codex", "--client", "claude-desktop", "--mcp-heart", os.Args[0], "--heart-hook", os.Args[0], "--agent-home", home}
	if code := runInit(context.Background(), args, &out, &errb); code != 0 {
		t.Fatalf("runInit(%q) = %d; stderr:\n%s", args, code, errb.String())
	}
	desktop := filepath.Join(os.Getenv("XDG_CONFIG_HOME"), "Claude", "claude_desktop_config.json")
	for _, want := range []string{
		"wrote    .mcp.json\n", "wrote    .claude/settings.json\n", "wrote    .codex/config.toml\n", "wrote    .codex/hooks.json\n",
		"wrote    " + desktop + "\n", "Claude Code: init allowed mcp-heart's tools", "Codex: init trusted the folder", "Claude Desktop: restart it",
		"wrote    CLAUDE.md\n", "wrote    AGENTS.md\n", "wrote    " + filepath.Join(home, ".claude", "settings.json") + "\n",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	if strings.Contains(out.String(), ".gemini") || strings.Contains(out.String(), "TRUST_FOLDER") {
		t.Errorf("gemini was wired without --client gemini:\n%s", out.String())
	}
	if _, err := os.Stat(filepath.Join(dir, ".gemini")); err == nil {
		t.Errorf(".gemini/ was created without --client gemini")
	}
	b, err := os.ReadFile(filepath.Join(dir, ".claude", "settings.json"))
	if err != nil || !strings.Contains(string(b), "'"+os.Args[0]+"' --client claude-code --workspace '"+dir+"'") {
		t.Errorf(".claude/settings.json does not run heart-hook (err %v):\n%s", err, b)
	}

	errb.Reset()
	if code := runInit(context.Background(), []string{"--client", "cursor", dir}, &out, &errb); code != 2 {
		t.Errorf("runInit(--client cursor) = %d, want 2", code)
	}
	for _, want := range []string{`"cursor"`, "gemini, claude-code, claude-desktop, agy, codex"} {
		if !strings.Contains(errb.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, errb.String())
		}
	}
}

// TestRunInitWithoutHeartHook: without heart-hook init registers mcp-heart
// but wires no hook, and says why and how to add them.
func TestRunInitWithoutHeartHook(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("PATH", "")
	var out, errb bytes.Buffer
	if code := runInit(context.Background(), []string{dir, "--mcp-heart", os.Args[0]}, &out, &errb); code != 0 {
		t.Fatalf("runInit() = %d; stderr:\n%s", code, errb.String())
	}
	if !strings.Contains(errb.String(), "no hooks were wired") || !strings.Contains(errb.String(), "--heart-hook /path/to/heart-hook") {
		t.Errorf("stderr does not say the hooks were left out:\n%s", errb.String())
	}
	b, err := os.ReadFile(filepath.Join(dir, ".gemini", "settings.json"))
	if err != nil || strings.Contains(string(b), `"hooks"`) || !strings.Contains(string(b), `"mcp-heart"`) {
		t.Errorf(".gemini/settings.json should register mcp-heart and no hooks (err %v):\n%s", err, b)
	}
}

// TestRunInitBrokenClientFile: a client file that is not JSON stops init
// with exit 1 and a message naming it; the file is left as it was.
func TestRunInitBrokenClientFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, ".mcp.json")
	if err := os.WriteFile(p, []byte("{oops"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if code := runInit(context.Background(), []string{"--client", "claude-code", dir, "--mcp-heart", os.Args[0], "--heart-hook", os.Args[0]}, &out, &errb); code != 1 {
		t.Fatalf("runInit() = %d, want 1; stderr:\n%s", code, errb.String())
	}
	if !strings.Contains(errb.String(), ".mcp.json: not valid JSON") {
		t.Errorf("stderr does not name the file:\n%s", errb.String())
	}
	if b, _ := os.ReadFile(p); string(b) != "{oops" {
		t.Errorf(".mcp.json was rewritten: %q", b)
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
	// The language is recorded in the workspace, so neither mcp-heart nor
	// the watchdog needs a second setting.
	if rec, err := os.ReadFile(filepath.Join(dir, "stats", "language.txt")); err != nil || string(rec) != "ja\n" {
		t.Errorf("stats/language.txt = %q, %v; want ja", rec, err)
	}
	if strings.Contains(out.String(), "language:") {
		t.Errorf("the next steps ask for a second language setting:\n%s", out.String())
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
	for _, p := range []string{mcpHeart, filepath.Join(dir, "heart-hook")} {
		if err := os.WriteFile(p, []byte("#!/bin/false\n"), 0o755); err != nil {
			t.Fatal(err)
		}
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
	if hook := filepath.Join(filepath.Dir(mcpHeart), "heart-hook"); !strings.Contains(string(b), "'"+hook+"' --client gemini") {
		t.Errorf("settings.json does not run the heart-hook next to watchdog (%s):\n%s", hook, b)
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

// Run in the folder of the quick start, init reads ./watchdog.yaml: the
// client's telemetry goes to that config's window, under the agent's name
// and with its key from the agent's state folder; a config that names
// another workspace is refused.
func TestInitReadsTheConfigBeside(t *testing.T) {
	folder := t.TempDir()
	bin := filepath.Join(t.TempDir(), "mcp-heart")
	os.WriteFile(bin, []byte("#!/bin/false\n"), 0o755)
	hook := filepath.Join(filepath.Dir(bin), "heart-hook")
	os.WriteFile(hook, []byte("#!/bin/true\n"), 0o755)
	state := filepath.Join(t.TempDir(), "state")
	cfg := "workspace: ai-works\nstate_dir: " + state + "\nagent: {delivery: inbox}\nhttp: {listen: \"127.0.0.1:9599\"}\n"
	os.WriteFile(filepath.Join(folder, "watchdog.yaml"), []byte(cfg), 0o644)
	t.Chdir(folder)
	var out, errb bytes.Buffer
	if code := runInit(context.Background(), []string{"--client", "claude-code", "--mcp-heart", bin, "--heart-hook", hook, "ai-works"}, &out, &errb); code != 0 {
		t.Fatalf("runInit() = %d; stderr:\n%s", code, errb.String())
	}
	keys, _ := filepath.Glob(filepath.Join(state, "ai-works-*", "telemetry.key"))
	if len(keys) != 1 {
		t.Fatalf("keys %v: want the agent's one key in its state folder", keys)
	}
	key, _ := os.ReadFile(keys[0])
	var settings struct {
		Env map[string]string `json:"env"`
	}
	b, _ := os.ReadFile(filepath.Join(folder, "ai-works", ".claude", "settings.json"))
	json.Unmarshal(b, &settings)
	if want := "http://127.0.0.1:9599/otlp/ai-works/" + strings.TrimSpace(string(key)); settings.Env["OTEL_EXPORTER_OTLP_ENDPOINT"] != want {
		t.Fatalf("endpoint %q, want %q", settings.Env["OTEL_EXPORTER_OTLP_ENDPOINT"], want)
	}
	other := filepath.Join(t.TempDir(), "other.yaml")
	os.WriteFile(other, []byte("workspace: /elsewhere\nstate_dir: "+state+"\nhttp: {listen: \"127.0.0.1:9599\"}\n"), 0o644)
	errb.Reset()
	if code := runInit(context.Background(), []string{"-c", other, "--client", "claude-code", "--mcp-heart", bin, "--heart-hook", hook, "ai-works"}, &out, &errb); code != 2 || !strings.Contains(errb.String(), "names no agent with the workspace") {
		t.Fatalf("a config of another workspace: exit %d, stderr %q", code, errb.String())
	}
}

// A ./watchdog.yaml of another user is not taken unasked: root running
// init in a folder the agent writes would make the key where the agent's
// config says.
func TestInitTakesOnlyItsOwnConfigBeside(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to give the config to another user")
	}
	folder := t.TempDir()
	bin := filepath.Join(t.TempDir(), "mcp-heart")
	os.WriteFile(bin, []byte("#!/bin/false\n"), 0o755)
	hook := filepath.Join(filepath.Dir(bin), "heart-hook")
	os.WriteFile(hook, []byte("#!/bin/true\n"), 0o755)
	state := filepath.Join(t.TempDir(), "elsewhere")
	cfg := filepath.Join(folder, "watchdog.yaml")
	os.WriteFile(cfg, []byte("workspace: ai-works\nstate_dir: "+state+"\nhttp: {listen: \"127.0.0.1:9599\"}\n"), 0o644)
	if err := os.Chown(cfg, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	t.Chdir(folder)
	var out, errb bytes.Buffer
	if code := runInit(context.Background(), []string{"--client", "claude-code", "--mcp-heart", bin, "--heart-hook", hook, "ai-works"}, &out, &errb); code != 0 {
		t.Fatalf("runInit() = %d; stderr:\n%s", code, errb.String())
	}
	if _, err := os.Stat(state); err == nil || strings.Contains(out.String(), "the watchdog's config: ./watchdog.yaml") {
		t.Fatalf("another user's config was taken: %s exists; output:\n%s", state, out.String())
	}
}
