package daemon

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ai-heart/ai-heart/internal/telemetry"
	"github.com/ai-heart/ai-heart/internal/wiring"
)

// TestSettingsWiredForAnotherWindow: the field's case. init wired the
// workspace's Gemini CLI to export its telemetry to the window on port A
// (the agent's key and all); the watchdog that runs serves port B. The
// start alerts it once, naming the file, both addresses and the fix; a
// reload with the same config does not alert again; a reload whose window
// is port A takes the alert back to nothing new, and the file stays quiet.
func TestSettingsWiredForAnotherWindow(t *testing.T) {
	cfg := testConfig(t)
	ac := cfg.AgentConfigs()[0]
	key, err := telemetry.LoadKey(filepath.Join(ac.StateDir(), telemetry.KeyFile), true)
	if err != nil {
		t.Fatal(err)
	}
	wired := wiring.TelemetryURL("127.0.0.1:9477", ac.DisplayName(), key)
	p := filepath.Join(cfg.Workspace, ".gemini", "settings.json")
	os.MkdirAll(filepath.Dir(p), 0o755)
	if err := os.WriteFile(p, []byte(`{"mcpServers": {"mcp-heart": {"command": "`+os.Args[0]+`"}}, "telemetry": {"enabled": true, "otlpEndpoint": "`+wired+`"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg.HTTP.Listen = "127.0.0.1:9555"
	h := startFake(t, cfg, nil)
	h.waitFor("the mismatch alerted", 10*time.Second, func() bool {
		return alertsWith(t, h.alerts, CheckClientSettings, "127.0.0.1:9477") > 0
	})
	a := alertsOf(t, h.alerts)
	var msg string
	for _, x := range a {
		if x["check"] == CheckClientSettings {
			msg, _ = x["message"].(string)
		}
	}
	for _, w := range []string{".gemini/settings.json", "127.0.0.1:9555", "watchdog init", "--client gemini"} {
		if !strings.Contains(msg, w) {
			t.Fatalf("alert %q lacks %q", msg, w)
		}
	}
	if strings.Contains(msg, key) {
		t.Fatalf("alert %q gives the key away", msg)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := h.d.Reload(ctx, cfg); err != nil {
		t.Fatal(err)
	}
	before := h.state().Counters.Pulses
	h.waitFor("a pulse after the reload", 10*time.Second, func() bool { s, err := h.tryState(); return err == nil && s.Counters.Pulses > before+1 })
	if n := alertsWith(t, h.alerts, CheckClientSettings, ""); n != 1 {
		t.Fatalf("%d client_settings alerts after a reload with the same config, want 1", n)
	}
}

// TestSettingsFilesPlantedDoNotHangTheStart: what the agent can plant in
// its client files (a FIFO, links to a device and out of the workspace, a
// huge or malformed file): the watchdog starts and pulses, each told.
func TestSettingsFilesPlantedDoNotHangTheStart(t *testing.T) {
	cfg := testConfig(t)
	outside := filepath.Join(t.TempDir(), "mcp.json")
	os.WriteFile(outside, []byte(`{"mcpServers": {"mcp-heart": {"command": "/nonexistent/mcp-heart"}}}`), 0o644)
	plant := map[string]func(p string) error{
		".gemini/settings.json": func(p string) error { return syscall.Mkfifo(p, 0o644) },
		".claude/settings.json": func(p string) error { return os.Symlink("/dev/zero", p) },
		".mcp.json":             func(p string) error { return os.Symlink(outside, p) },
		".codex/config.toml":    func(p string) error { return os.WriteFile(p, []byte("[mcp_servers.mcp-heart\n"), 0o644) },
	}
	for rel, f := range plant {
		p := filepath.Join(cfg.Workspace, filepath.FromSlash(rel))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := f(p); err != nil {
			t.Fatal(err)
		}
	}
	h := startFake(t, cfg, nil)
	h.waitFor("pulses", 10*time.Second, func() bool { s, err := h.tryState(); return err == nil && s.Counters.Pulses >= 2 })
	for rel, says := range map[string]string{".gemini/settings.json": "cannot be read", ".claude/settings.json": "cannot be read",
		".mcp.json": "/nonexistent/mcp-heart", ".codex/config.toml": "cannot be read"} {
		if alertsWith(t, h.alerts, CheckClientSettings, rel+" ") == 0 || alertsWith(t, h.alerts, CheckClientSettings, says) == 0 {
			t.Errorf("no client_settings alert on %s saying %q: %v", rel, says, alertsOf(t, h.alerts))
		}
	}
}
